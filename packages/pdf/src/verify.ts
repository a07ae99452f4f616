import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  expandPageRanges,
  pagesOf,
  pagesOfPlan,
  parsePageRanges,
  pdfPermissions,
  type EncryptedResult,
  type FileKind,
  type PdfPermission,
  type ResultChecks,
  type Tool,
} from '@quire/catalog';
import { mapLimit, ToolError, type Job, type Logger, type Metrics } from '@quire/base';
import { listZip, sniffKind } from '@quire/detect';
import { checkArchival } from './archival.ts';
import { mupdfPageCounts, PageReads, parseContent, run, type PageRef, type VerifyCache } from './page-reads.ts';
import { encryption, withPassword } from './qpdf.ts';
import { extractZip } from './zip.ts';

/** A result that breaks a tool's promise; never offered. The check names what failed, for logs and metrics. */
export class VerificationError extends ToolError {
  constructor(
    readonly check: string,
    detail: string,
  ) {
    super('internal', 'The result did not pass our checks, so we did not offer it. Please try again.', {
      cause: new Error(`${check}: ${detail}`),
    });
  }
}

/** Pages whose text and pixels are compared: all of a short document, a spread of a long one. */
const samplePages = 12;
/** Share of an input page's words that may go missing before its text counts as changed (ligatures, hyphens). */
const wordLossTolerance = 0.01;

const letters = (word: string) => [...word].sort().join('');

/** A text's words; pdftotext's directional marks around right-to-left runs are not part of them. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/\p{Cf}+/gu, '')
    .split(/\s+/)
    .filter(Boolean);
}

/** Up to `samplePages` page numbers spread over 1..count, first and last included. */
export function samplePageNumbers(count: number, max = samplePages): number[] {
  if (count <= max) return Array.from({ length: count }, (_, i) => i + 1);
  const picks = new Set<number>();
  for (let i = 0; i < max; i++) picks.add(1 + Math.round((i * (count - 1)) / (max - 1)));
  return [...picks];
}

/** Items of `before` missing from `after`, counted with repeats. */
export function missingItems(before: string[], after: string[]): string[] {
  const have = new Map<string, number>();
  for (const w of after) have.set(w, (have.get(w) ?? 0) + 1);
  const missing: string[] = [];
  for (const w of before) {
    const n = have.get(w) ?? 0;
    if (n > 0) have.set(w, n - 1);
    else missing.push(w);
  }
  return missing;
}

/**
 * A split's parts joined in order into one file, whose pages are then read in as few runs as a
 * document's, not three runs a part; undefined when there is only one part or qpdf cannot join them
 * without a warning (they are then read one by one). A join without a warning has also opened every
 * part cleanly and parsed every page's content (see parseContent), so that each part need not be
 * checked on its own (see openParts).
 */
async function joinParts(parts: string[], out: string, job: Job): Promise<string | undefined> {
  if (parts.length < 2) return undefined;
  const { code } = await run(job, 'qpdf', ['--empty', '--pages', ...parts, '--', ...parseContent, out]);
  return code === 0 ? out : undefined;
}

/**
 * A zip's sampled entries opened and counted. When a split's parts joined cleanly (see joinParts),
 * qpdf has opened them all and MuPDF counts their pages in one run; else, or when MuPDF could not
 * count them all plainly, each is checked by qpdf on its own (a dozen runs where one does).
 */
async function openParts(
  picked: number[],
  files: string[],
  joined: Promise<string | undefined> | undefined,
  reads: PageReads,
  job: Job,
): Promise<{ index: number; pages: number }[]> {
  const kinds = await Promise.all(files.map((f) => sniffKind(f)));
  const counts = kinds.every((k) => k === 'pdf') && (await joined) ? await mupdfPageCounts(files, job) : undefined;
  if (counts) return picked.map((n, k) => ({ index: n - 1, pages: counts[k]! }));
  return mapLimit(picked, 2, async (n, k) => {
    const pages = kinds[k] === 'pdf' ? await reads.opened(files[k]!) : kinds[k] ? NaN : undefined;
    if (pages === undefined) throw new VerificationError('opens', `zip entry ${n} does not open`);
    return { index: n - 1, pages };
  });
}

/** One output page, by where it is in the result, and the input page it must match. */
interface PlannedPair {
  in: PageRef;
  /** The page in the PDF result, or in its zip entry `part` (an index); `joined`: in the split's joined parts. */
  out: { page: number; part?: number; joined?: number };
}

/** What a result must hold, known from the inputs' page counts and the options before it is opened. */
interface Plan {
  /** Pages of a PDF result that keeps, adds up or leaves out the input's. */
  pages?: number;
  /** Input pages in each zip entry of a split. */
  ranges?: number[][];
  /** The sampled pairs whose text and pixels are compared. */
  sample: PlannedPair[];
}

function plan(checks: ResultChecks, inputPdfs: string[], inputPages: number[], options: Record<string, unknown>): Plan {
  const [first] = inputPdfs;
  const all = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  const pairs: PlannedPair[] = [];
  const sampled = (): PlannedPair[] => samplePageNumbers(pairs.length).map((i) => pairs[i - 1]!);
  switch (checks.pages) {
    // Pages recovered are first expected to be the pages a reader shows, one for one (see planRecovered).
    case 'same':
    case 'recovered':
      for (const p of all(inputPages[0]!)) pairs.push({ in: { file: first!, page: p }, out: { page: p } });
      return { pages: pairs.length, sample: sampled() };
    case 'sum':
      for (const [i, file] of inputPdfs.entries())
        for (const q of all(inputPages[i]!)) pairs.push({ in: { file, page: q }, out: { page: pairs.length + 1 } });
      return { pages: pairs.length, sample: sampled() };
    case 'kept': {
      const removed = new Set(pagesOf(String(options.pages), inputPages[0]!));
      for (const q of all(inputPages[0]!).filter((p) => !removed.has(p)))
        pairs.push({ in: { file: first!, page: q }, out: { page: pairs.length + 1 } });
      return { pages: pairs.length, sample: sampled() };
    }
    case 'planned': {
      const planned = pagesOfPlan(String(options.plan), inputPages[0]!);
      planned.forEach((p, i) => {
        if (!('blank' in p)) pairs.push({ in: { file: first!, page: p.page }, out: { page: i + 1 } });
      });
      return { pages: planned.length, sample: sampled() };
    }
    case 'per-range': {
      const ranges =
        typeof options.ranges === 'string'
          ? expandPageRanges(parsePageRanges(options.ranges), inputPages[0]!)
          : all(inputPages[0]!).map((p) => [p]);
      // The parts opened are a spread of them; their pages, joined in order, are the pairs sampled from.
      for (const n of samplePageNumbers(ranges.length))
        ranges[n - 1]!.forEach((q, i) =>
          pairs.push({ in: { file: first!, page: q }, out: { part: n - 1, page: i + 1, joined: pairs.length + 1 } }),
        );
      return { ranges, sample: sampled() };
    }
    default:
      return { sample: [] };
  }
}

/** A zip result: its entry count and the sampled entries, unpacked. */
interface ZipParts {
  count: number;
  picked: number[];
  files: string[];
}

export interface VerifyRequest {
  tool: Tool;
  /** The inputs as the tool read them: PDFs already decrypted. */
  inputs: { path: string; kind: FileKind }[];
  options: Record<string, unknown>;
  /** `streamsChecked`: see ToolResult.streamsChecked in the service kit. */
  result: { path: string; kind: FileKind; streamsChecked?: boolean };
  job: Job;
  /** What earlier checks read, to be reused; by default the job's own, shared by calls with its signal. */
  cache?: VerifyCache;
}

const pdfInputs = (req: Pick<VerifyRequest, 'inputs'>) => req.inputs.filter((i) => i.kind === 'pdf').map((i) => i.path);

/**
 * Reads, while the tool works, what verifying its result will need of the inputs: their page counts
 * and the text of the input pages to be compared. The job's cache keeps them for verifyResult.
 */
export async function readInputsAhead(req: Omit<VerifyRequest, 'result'>): Promise<void> {
  const checks = req.tool.checks;
  const inputPdfs = pdfInputs(req);
  if (checks.pages === 'none' || inputPdfs.length === 0) return;
  const reads = new PageReads(req.job, req.cache);
  const inputPages = await countInputs(checks, inputPdfs, reads);
  if (!checks.text || inputPages.some((n) => Number.isNaN(n))) return;
  inputPdfs.forEach((f, i) => reads.pageCounts.set(f, inputPages[i]!));
  const { sample } = plan(checks, inputPdfs, inputPages, req.options);
  if (sample.length)
    await reads.pages(
      sample.map((p) => p.in),
      'text',
    );
}

/**
 * The inputs' page counts the comparison starts from: qpdf's, or for pages recovered from a damaged
 * input the pages a reader shows (see PageReads.readerCount).
 */
function countInputs(checks: ResultChecks, inputPdfs: string[], reads: PageReads): Promise<number[]> {
  return checks.pages === 'recovered' ? reads.readerCount(inputPdfs) : reads.count(inputPdfs);
}

/**
 * Checks a result against what its tool promises (the catalog's `checks`): that a protected result
 * needs its password and grants what was asked, that it opens (cleanly, when promised), that its pages
 * follow from the input's, that no text went missing and no page went blank. Returns the names of the
 * checks passed; throws a VerificationError naming the first that failed.
 */
export async function verifyResult(req: VerifyRequest): Promise<string[]> {
  const reads = new PageReads(req.job, req.cache);
  await mkdir(reads.dir, { recursive: true });
  // Reads are started before the checks that need them; the check ends only once all of them have.
  const started: Promise<unknown>[] = [];
  const ahead = <T>(work: Promise<T>): Promise<T> => {
    started.push(work);
    work.catch(() => undefined);
    return work;
  };
  try {
    return await checkResult(req, reads, ahead);
  } finally {
    await Promise.allSettled(started);
  }
}

/** Starts a read that the check waits for before it ends, whether or not anything awaits it first. */
type Ahead = <T>(work: Promise<T>) => Promise<T>;

async function checkResult(given: VerifyRequest, reads: PageReads, ahead: Ahead): Promise<string[]> {
  const checks = given.tool.checks;
  const inputPdfs = pdfInputs(given);
  const counting = checks.pages === 'none' ? Promise.resolve([]) : ahead(countInputs(checks, inputPdfs, reads));
  const passed: string[] = [];

  // 0. A protected result needs its password and grants what was asked; the rest is checked on it
  // decrypted, as whoever opens it with that password sees it.
  let req = given;
  if (checks.encrypted) {
    const plain = await ahead(unlockResult(given, checks.encrypted, reads));
    req = { ...given, result: { ...given.result, path: plain } };
    passed.push('encrypted', ...(checks.encrypted.permissions ? ['permissions'] : []));
  }

  // 1. The output opens.
  const opening = await openResult(req, reads, ahead, counting);
  // The pages to compare follow from the inputs alone: they are read while the output is opened.
  const inputPages = await counting;
  // Pages recovered are compared once the output's are known: a reader may show pages that hold nothing.
  const recovering = checks.pages === 'recovered';
  const early = recovering ? undefined : planComparison(req, inputPdfs, inputPages, opening, reads, ahead);
  const outputPages = opening.pdf ? await opening.pdf : NaN;
  if (outputPages === undefined) throw new VerificationError('opens', 'qpdf --check failed');
  passed.push('opens');
  if (checks.opens === 'clean' && req.result.kind === 'pdf') {
    if (!(await reads.sound(req.result.path))) throw new VerificationError('opens', 'qpdf --check warns');
    passed.push('clean');
  }
  const comparison = recovering
    ? await planRecovered(req, inputPdfs[0], inputPages[0], outputPages, reads, ahead)
    : early;
  const parts = (await opening.parts) ?? [];
  // What PDF/A asks of the file as a whole, read while the sampled pages are (planComparison started them).
  if (checks.archival && req.result.kind === 'pdf') {
    await checkArchival(req.result.path, req.job);
    passed.push('archival');
  }
  if (!comparison) return passed;

  // 2. Pages follow from the input's.
  checkPages(req, comparison.planned, inputPages, { pages: outputPages, zip: opening.zip, parts });
  passed.push('pages');
  if (!comparison.reading) return passed;

  // 3 and 4. Text and pixels of the sampled pages, read above.
  const sample = await comparison.reading;
  if (sample.texts) {
    await checkSampleText(req, sample.pairs, sample.texts, reads);
    passed.push('text');
  }
  if (sample.outBlank) {
    await checkSamplePixels(sample.pairs, sample.outBlank, reads);
    passed.push('pixels');
  }
  return passed;
}

/** A result being opened: a PDF's opening and page count, or a zip's entries and the sampled ones' checks. */
interface Opening {
  /** A PDF result's pages once it opened; undefined when it does not open. */
  pdf?: Promise<number | undefined>;
  zip?: ZipParts;
  /** Each sampled entry of a zip, opened and counted. */
  parts?: Promise<{ index: number; pages: number }[]>;
  /** A split's sampled parts joined for reading (see joinParts). */
  joined?: Promise<string | undefined>;
}

/**
 * Starts opening the result, check 1: a PDF is opened and counted in one run; a zip's sampled entries
 * are each opened (and a split's joined for reading, see joinParts) while its pages are read. An
 * Office package must hold its main part, and text must be UTF-8. What fails at once throws at once.
 */
async function openResult(
  req: VerifyRequest,
  reads: PageReads,
  ahead: Ahead,
  counting: Promise<number[]>,
): Promise<Opening> {
  const { result, job } = req;
  if (result.kind === 'pdf')
    return {
      pdf: ahead(
        // A clean result is promised of every stream: its check is qpdf's full one.
        streamsCheckedBefore(req)
          ? reads.structure(result.path)
          : copiesStreams(req)
            ? openCopied(req, reads, counting)
            : reads.opened(result.path),
      ),
    };
  if (result.kind === 'zip') {
    const names = await listZip(result.path).catch(() => undefined);
    if (!names || names.length === 0) throw new VerificationError('opens', 'zip is empty or unreadable');
    // Every entry is counted; a spread of them is unpacked and opened, so a split of a thousand pages stays cheap.
    const count = names.filter((n) => !n.endsWith('/')).length;
    const picked = samplePageNumbers(count);
    const files = await extractZip(result.path, join(reads.dir, 'zip'), (i) => picked.includes(i + 1));
    const joined =
      req.tool.checks.pages === 'per-range' ? ahead(joinParts(files, join(reads.dir, 'parts.pdf'), job)) : undefined;
    const parts = ahead(openParts(picked, files, joined, reads, job));
    return { zip: { count, picked, files }, parts, joined };
  }
  if (result.kind === 'docx' || result.kind === 'xlsx' || result.kind === 'pptx') {
    const main = { docx: 'word/document.xml', xlsx: 'xl/workbook.xml', pptx: 'ppt/presentation.xml' }[result.kind];
    const names = await listZip(result.path).catch(() => [] as string[]);
    if (!names.includes('[Content_Types].xml') || !names.includes(main)) {
      throw new VerificationError('opens', `${result.kind} package lacks its main part`);
    }
    return {};
  }
  const text = await readFile(result.path);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(text);
  } catch {
    throw new VerificationError('opens', 'text is not valid UTF-8');
  }
  return {};
}

/**
 * Opens a result whose streams are its inputs' (see ResultChecks.streams): its structure is read whole
 * while only the sampled pages' streams are decoded, so the check costs what the sample does. A
 * result no longer than its sample, or with nothing to sample, is checked whole.
 */
async function openCopied(req: VerifyRequest, reads: PageReads, counting: Promise<number[]>) {
  const inputPages = await counting;
  const planned = inputPages.some((n) => Number.isNaN(n))
    ? undefined
    : plan(req.tool.checks, pdfInputs(req), inputPages, req.options);
  const path = req.result.path;
  if (!planned) return reads.opened(path);
  const sampled = copiedSample(planned);
  if (!sampled) return reads.opened(path);
  // The sample holds the last page planned: a tree shorter than its claim fails the copy.
  const [pages, decodes] = await Promise.all([reads.structure(path, planned.pages), reads.pagesDecode(path, sampled)]);
  // Sampled pages that are not there are the page check's to report.
  return decodes || (pages !== undefined && pages !== planned.pages) ? pages : undefined;
}

/**
 * A result whose engine decoded every stream of it before writing it out (qpdf's full check, as
 * OCRmyPDF runs on its output), not promised clean: its structure and page count are read, its
 * streams not decoded again. Its sampled pages are still read and rendered.
 */
const streamsCheckedBefore = (req: VerifyRequest) =>
  req.result.streamsChecked === true && req.tool.checks.opens !== 'clean';

/** A result whose streams are the input's, not promised clean: its sampled pages are checked copied out. */
const copiesStreams = (req: VerifyRequest) => req.tool.checks.streams === 'copied' && req.tool.checks.opens !== 'clean';

/**
 * The output pages of a big result's sample, in order: what openCopied copies out to check instead of
 * the whole file, and where the sample is then read. None for a result small enough to check whole.
 */
function copiedSample(planned: Plan): number[] | undefined {
  if (!planned.pages || planned.pages <= samplePages) return undefined;
  return planned.sample.map((p) => p.out.page).sort((a, b) => a - b);
}

/** What the result is compared with: the plan, and the sampled pages being read when there are any. */
interface Comparison {
  planned: Plan;
  reading?: Promise<SampleReads>;
}

/**
 * The comparison the inputs' page counts allow, its sampled pages read from now on; undefined when
 * there is none (the tool promises nothing of pages, or an input's pages could not be counted).
 */
function planComparison(
  req: VerifyRequest,
  inputPdfs: string[],
  inputPages: number[],
  opening: Opening,
  reads: PageReads,
  ahead: Ahead,
): Comparison | undefined {
  const checks = req.tool.checks;
  // An input only poppler could read (the tool managed, qpdf cannot count it) leaves nothing to compare with;
  // nor does a photo read into a page (OCR of an image), when the pages should follow an input PDF's.
  const fromInputPdf = checks.pages !== 'per-file' && checks.pages !== 'some';
  const comparable =
    checks.pages !== 'none' && !(fromInputPdf && inputPdfs.length === 0) && !inputPages.some((n) => Number.isNaN(n));
  const planned = comparable ? plan(checks, inputPdfs, inputPages, req.options) : undefined;
  inputPdfs.forEach((f, i) => reads.pageCounts.set(f, inputPages[i]!));
  if (!planned) return undefined;
  const { zip, joined } = opening;
  const reading =
    planned.sample.length > 0 && (!planned.ranges || planned.ranges.length === zip?.count)
      ? ahead(
          locate(planned, req.result.path, zip, joined, reads, copiesStreams(req)).then((pairs) =>
            readSample(pairs, checks, reads),
          ),
        )
      : undefined;
  return { planned, ...(reading && { reading }) };
}

/** Beyond this many pages, a damaged input whose recovered pages are fewer is not read whole to tell why. */
const recoveredPagesRead = 2000;

/**
 * The comparison of pages recovered from a damaged input (see ResultChecks.pages): the pages a reader
 * shows, one for one, when the output has as many. Else the output must hold exactly, in order, those
 * that show something of their own: words, or a drawing that is neither blank nor the look of a page
 * shown before (a reader may show a page where a broken page tree points at nothing, or show one page
 * twice where it loops). When no reader can count the input's pages there is nothing to compare with,
 * and every page of the output must show something: a page made up of nothing is not one recovered.
 */
async function planRecovered(
  req: VerifyRequest,
  input: string | undefined,
  inputPages: number | undefined,
  outputPages: number,
  reads: PageReads,
  ahead: Ahead,
): Promise<Comparison | undefined> {
  if (!input || !Number.isInteger(outputPages)) return undefined;
  if (!Number.isInteger(inputPages)) {
    const refs = Array.from({ length: Math.min(outputPages, recoveredPagesRead) }, (_, i) => ({
      file: req.result.path,
      page: i + 1,
    }));
    reads.pageCounts.set(req.result.path, outputPages);
    const [texts, blank] = await Promise.all([reads.pages(refs, 'text'), reads.pages(refs, 'blank')]);
    const empty = refs.find(
      ({ page }) => !wordsOf(texts.get(req.result.path)!.get(page)!).length && blank.get(req.result.path)!.get(page),
    );
    if (empty)
      throw new VerificationError('pages', `page ${empty.page} holds nothing, and no reader shows the input's`);
    return undefined;
  }
  const shown = inputPages!;
  reads.pageCounts.set(input, shown);
  const all = Array.from({ length: shown }, (_, i) => i + 1);
  let kept = all;
  if (outputPages !== shown) {
    const what = `${outputPages} pages for the ${shown} a reader shows`;
    if (shown > recoveredPagesRead) throw new VerificationError('pages', what);
    const refs = all.map((page) => ({ file: input, page }));
    const [texts, looks] = await Promise.all([reads.pages(refs, 'text'), reads.pages(refs, 'look')]);
    const seen = new Set<string>();
    kept = all.filter((p) => {
      const look = looks.get(input)!.get(p)!;
      const own = wordsOf(texts.get(input)!.get(p)!).length > 0 || (look !== 'blank' && !seen.has(look));
      seen.add(look);
      return own;
    });
    if (kept.length !== outputPages)
      throw new VerificationError('pages', `${what}, ${kept.length} of them with something of their own`);
  }
  const pairs = kept.map((page, i): PlannedPair => ({ in: { file: input, page }, out: { page: i + 1 } }));
  const planned: Plan = { pages: outputPages, sample: samplePageNumbers(pairs.length).map((i) => pairs[i - 1]!) };
  const checks = req.tool.checks;
  const reading = planned.sample.length
    ? ahead(
        locate(planned, req.result.path, undefined, undefined, reads, false).then((p) => readSample(p, checks, reads)),
      )
    : undefined;
  return { planned, ...(reading && { reading }) };
}

/** What qpdf --show-encryption calls each permission: granted when every one of its lines says allowed. */
const permissionLines: Record<PdfPermission, string[]> = {
  print: ['print low resolution', 'print high resolution'],
  copy: ['extract for any purpose'],
  modify: ['modify document assembly', 'modify other'],
  annotate: ['modify annotations'],
  fillForms: ['modify forms'],
};

/** The line of `modify` that a promise may give an option of its own (EncryptedResult.permissions.assemble). */
const assemblyLine = 'modify document assembly';

/**
 * qpdf's account of a PDF's encryption as this password opens it, or undefined when it does not open
 * it. It repeats the user password: it is read here and never logged, nor put in an error.
 */
async function showEncryption(path: string, password: string, job: VerifyRequest['job']): Promise<string | undefined> {
  const { code, stdout } = await withPassword(password, job, (pw) =>
    run(job, 'qpdf', ['--show-encryption', ...pw, path]),
  );
  return code === 0 || code === 3 ? stdout : undefined;
}

/**
 * Check 0 of a protected result (ResultChecks.encrypted): it does not open without a password, opens
 * with the one its option holds, is AES-256 (R6), grants each permission exactly as its option says
 * (and then not to the user password as owner), and opens as owner with the owner password when one
 * was given. Returns the result decrypted with the password, for the other checks to read.
 */
async function unlockResult(req: VerifyRequest, promise: EncryptedResult, reads: PageReads): Promise<string> {
  const { result, job, options } = req;
  const fail = (detail: string, check = 'encrypted') => new VerificationError(check, detail);
  const given = options[promise.password];
  const owner = promise.ownerPassword === undefined ? undefined : options[promise.ownerPassword];
  const ownerGiven = typeof owner === 'string' && owner !== '';
  // No user password, an owner password: the PDF opens for anyone, under its permissions.
  const password = given === undefined || given === '' ? (ownerGiven ? '' : given) : given;
  if (result.kind !== 'pdf') throw fail(`a ${result.kind} result is not a protected PDF`);
  if (typeof password !== 'string') throw fail(`no password in option ${promise.password}`);
  const state = await encryption(result.path, undefined, job);
  if (password === '' ? state !== 'open' : state !== 'locked')
    throw fail(state === 'none' ? 'the result is not encrypted' : 'it opens without a password');
  const shown = await showEncryption(result.path, password, job);
  if (shown === undefined) throw fail('its password does not open it');
  if (!/^R = 6$/m.test(shown) || !/^stream encryption method: AESv3$/m.test(shown))
    throw fail('it is not encrypted with AES-256');
  const asOwner = /^Supplied password is owner password$/m.test(shown);
  if (promise.permissions) {
    const named = promise.permissions;
    const granted = (option: string) => options[option] !== false;
    const expected: [string, boolean][] = pdfPermissions.flatMap((permission) =>
      permissionLines[permission].map((line): [string, boolean] => [
        line,
        granted(line === assemblyLine && named.assemble !== undefined ? named.assemble : named[permission]),
      ]),
    );
    for (const [line, allowed] of expected) {
      const m = new RegExp(`^${line}: (not )?allowed$`, 'm').exec(shown);
      if (!m || (m[1] === undefined) !== allowed)
        throw fail(`${line} is ${allowed ? 'withheld' : 'granted'}`, 'permissions');
    }
    if (expected.some(([, allowed]) => !allowed) && asOwner)
      throw fail('the password to open it is also the owner password', 'permissions');
  }
  if (ownerGiven && owner !== password) {
    const byOwner = await showEncryption(result.path, owner, job);
    if (!byOwner || !/^Supplied password is owner password$/m.test(byOwner))
      throw fail('the owner password does not open it as owner');
  }
  await mkdir(reads.dir, { recursive: true });
  const plain = join(reads.dir, `decrypted-${randomUUID()}.pdf`);
  const { code } = await withPassword(password, job, (pw) =>
    run(job, 'qpdf', [...pw, '--decrypt', result.path, plain]),
  );
  if (code !== 0 && code !== 3) throw fail('it could not be decrypted with its password');
  return plain;
}

/** Check 2: the output's pages (a PDF's, or a zip's entries and the sampled ones' pages) follow from the input's. */
function checkPages(
  req: VerifyRequest,
  planned: Plan,
  inputPages: number[],
  output: { pages: number; zip: ZipParts | undefined; parts: { index: number; pages: number }[] },
): void {
  const expectPages = (got: number, want: number, what: string) => {
    if (got !== want) throw new VerificationError('pages', `${what}: ${got} pages, expected ${want}`);
  };
  const { zip } = output;
  switch (req.tool.checks.pages) {
    case 'same':
    case 'sum':
    case 'kept':
    case 'planned':
    case 'recovered':
      expectPages(output.pages, planned.pages!, 'output');
      break;
    case 'per-range': {
      const ranges = planned.ranges!;
      if (zip!.count !== ranges.length)
        throw new VerificationError('pages', `${zip!.count} files for ${ranges.length} ranges`);
      for (const { index, pages } of output.parts) expectPages(pages, ranges[index]!.length, `part ${index + 1}`);
      break;
    }
    case 'per-page':
      if (zip!.count !== inputPages[0])
        throw new VerificationError('pages', `${zip!.count} images for ${inputPages[0]} pages`);
      break;
    case 'per-file':
      if (!(output.pages >= req.inputs.length))
        throw new VerificationError('pages', `${output.pages} pages for ${req.inputs.length} files`);
      break;
    case 'some':
      if (!(output.pages >= 1)) throw new VerificationError('pages', 'no pages');
      break;
  }
}

/**
 * Check 3: no sampled page lost its words, and added text is on each. pdftotext groups a page's words
 * as the page is shown: once turned, formulas and forms read as other words. Pages that differ are
 * read again unturned, where their words are drawn alike; a word lost is lost in both readings.
 */
async function checkSampleText(
  req: VerifyRequest,
  pairs: PagePair[],
  texts: Map<string, Map<number, string>>,
  reads: PageReads,
): Promise<void> {
  const mark = req.tool.checks.text === 'added' ? wordsOf(String(req.options.text ?? '')) : [];
  const regrouped = pairs.filter((pair) => !keepsText(pair, texts, mark));
  if (regrouped.length === 0) return;
  // Each file's pages to read again, copied out unturned: a copy of those pages, not of the file.
  const wanted = new Map<string, Set<number>>();
  for (const { in: a, out: b } of regrouped)
    for (const { file, page } of [a, b]) wanted.set(file, (wanted.get(file) ?? new Set()).add(page));
  const unturned = new Map<string, { copy: string; pages: number[] }>();
  for (const [file, set] of wanted) {
    const pages = [...set].sort((x, y) => x - y);
    const copy = join(reads.dir, `unturned-${unturned.size}.pdf`);
    const args = ['--empty', '--remove-unreferenced-resources=no', '--stream-data=preserve', '--pages', file];
    const { code } = await run(req.job, 'qpdf', [...args, pages.join(','), '--', '--rotate=0', copy]);
    if (code !== 0 && code !== 3) throw new VerificationError('text', 'a page could not be read unturned');
    unturned.set(file, { copy, pages });
    reads.pageCounts.set(copy, pages.length);
  }
  const moved = ({ file, page }: PageRef): PageRef => {
    const { copy, pages } = unturned.get(file)!;
    return { file: copy, page: pages.indexOf(page) + 1 };
  };
  const flat = regrouped.map((p) => ({ in: moved(p.in), out: moved(p.out) }));
  const again = await reads.pages(
    flat.flatMap((p) => [p.in, p.out]),
    'text',
  );
  for (const pair of flat) checkText(pair, again, mark);
}

/** Check 4: no sampled output page came out blank, unless its input page was blank too. */
async function checkSamplePixels(
  pairs: PagePair[],
  outBlank: Map<string, Map<number, boolean>>,
  reads: PageReads,
): Promise<void> {
  const blank = pairs.filter((p) => outBlank.get(p.out.file)!.get(p.out.page));
  if (blank.length === 0) return;
  const inBlank = await reads.pages(
    blank.map((p) => p.in),
    'blank',
  );
  const lost = blank.find((p) => !inBlank.get(p.in.file)!.get(p.in.page));
  if (lost) throw new VerificationError('pixels', `page ${lost.out.page} came out blank`);
}

/** One output page and the input page it must match. */
interface PagePair {
  in: PageRef;
  out: PageRef;
}

/** The planned pairs' output pages in the files that hold them: the PDF result, a split's joined parts, or its entries. */
async function locate(
  planned: Plan,
  result: string,
  zip: ZipParts | undefined,
  joining: Promise<string | undefined> | undefined,
  reads: PageReads,
  fromCopy: boolean,
): Promise<PagePair[]> {
  if (!planned.ranges) {
    reads.pageCounts.set(result, planned.pages!);
    // The sampled pages were copied out to open them (openCopied): they are read there, in a small
    // file, rather than each read parsing the whole result again.
    const copied = copiedSample(planned);
    const copy = fromCopy && copied ? await reads.copy(result, copied) : undefined;
    if (copy)
      return planned.sample.map((p) => ({ in: p.in, out: { file: copy, page: copied!.indexOf(p.out.page) + 1 } }));
    return planned.sample.map((p) => ({ in: p.in, out: { file: result, page: p.out.page } }));
  }
  const ranges = planned.ranges;
  const joined = await joining;
  if (joined)
    reads.pageCounts.set(
      joined,
      zip!.picked.reduce((n, i) => n + ranges[i - 1]!.length, 0),
    );
  return planned.sample.map(({ in: from, out }) => {
    if (joined) return { in: from, out: { file: joined, page: out.joined! } };
    const file = zip!.files[zip!.picked.indexOf(out.part! + 1)]!;
    reads.pageCounts.set(file, ranges[out.part!]!.length);
    return { in: from, out: { file, page: out.page } };
  });
}

/**
 * The sampled pages' text (input and output) and the output pages' blankness, side by side: each
 * file's pages in as few runs as they allow. An input page is rendered only to excuse an output page
 * that came out blank.
 */
async function readSample(pairs: PagePair[], checks: ResultChecks, reads: PageReads): Promise<SampleReads> {
  const [texts, outBlank] = await Promise.all([
    checks.text
      ? reads.pages(
          pairs.flatMap((p) => [p.in, p.out]),
          'text',
        )
      : undefined,
    checks.pixels
      ? reads.pages(
          pairs.map((p) => p.out),
          'blank',
        )
      : undefined,
  ]);
  return { pairs, ...(texts && { texts }), ...(outBlank && { outBlank }) };
}

/** The sampled pairs, with their pages' text when the tool keeps text, and the output pages' blankness when pixels. */
interface SampleReads {
  pairs: PagePair[];
  texts?: Map<string, Map<number, string>>;
  outBlank?: Map<string, Map<number, boolean>>;
}

/**
 * verifyResult as every route that offers results calls it: a failure is counted under `label` in
 * quire_verification_failures_total and logged with the check that failed (never the contents). When
 * an input PDF was damaged itself (qpdf had to repair it, or could not), the failure is the input's:
 * damaged_input, not internal.
 */
export async function verifyCounted(
  req: VerifyRequest,
  label: string,
  kit: { metrics: Metrics; log: Logger },
): Promise<string[]> {
  try {
    return await verifyResult(req);
  } catch (err) {
    if (!(err instanceof VerificationError)) throw err;
    kit.metrics.verificationFailures.inc({ tool: label, check: err.check });
    const reads = new PageReads(req.job, req.cache);
    const sound = await Promise.all(pdfInputs(req).map((p) => reads.sound(p))).catch((): boolean[] => []);
    const damaged = sound.includes(false);
    kit.log.warn('result failed verification', {
      tool: label,
      check: err.check,
      cause: String(err.cause),
      inputDamaged: damaged,
    });
    throw damaged ? new ToolError('damaged_input', undefined, { cause: err.cause }) : err;
  }
}

function keepsText(pair: PagePair, texts: Map<string, Map<number, string>>, mark: string[]): boolean {
  try {
    checkText(pair, texts, mark);
    return true;
  } catch (err) {
    if (err instanceof VerificationError) return false;
    throw err;
  }
}

function checkText(pair: PagePair, texts: Map<string, Map<number, string>>, mark: string[]): void {
  const before = texts.get(pair.in.file)!.get(pair.in.page)!;
  const after = texts.get(pair.out.file)!.get(pair.out.page)!;
  if (mark.some((w) => !after.includes(w))) {
    throw new VerificationError('text', `page ${pair.out.page} lacks the added text`);
  }
  // Added text may run into the page's own words when extracted: take it out (once) before comparing.
  const own = mark.reduce((text, w) => text.replace(w, ' '), after);
  const { lost, of, kept } = wordsLost(before, own);
  if (!kept) {
    throw new VerificationError('text', `page ${pair.out.page} lost ${lost} of ${of} words`);
  }
}

/**
 * How many of a page's words another reading of it lacks, and whether the text check lets that pass
 * (`kept`). Letters are sorted within each word: right-to-left text comes out of extraction in either
 * direction. Words that are all there but broken or joined elsewhere (a rewritten page whose glyphs
 * moved by a hair, so that the reader puts its spaces elsewhere) pass when its characters, lost and
 * invented, are within the same share.
 */
export function wordsLost(before: string, after: string): { lost: number; of: number; kept: boolean } {
  const beforeWords = wordsOf(before);
  const afterWords = wordsOf(after);
  const lost = missingItems(beforeWords.map(letters), afterWords.map(letters)).length;
  const within = (n: number, of: number) => n <= Math.floor(of * wordLossTolerance);
  if (within(lost, beforeWords.length)) return { lost, of: beforeWords.length, kept: true };
  // Then letters the reading invents count as much as those it lost: only the spaces may have moved.
  const beforeChars = [...beforeWords.join('')];
  const afterChars = [...afterWords.join('')];
  const changed = missingItems(beforeChars, afterChars).length + missingItems(afterChars, beforeChars).length;
  return { lost, of: beforeWords.length, kept: within(changed, beforeChars.length) };
}
