import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expandPageRanges, parsePageRanges, pagesOf, type FileKind, type Tool } from '@quire/catalog';
import { ToolError } from './errors.ts';
import { exec } from './exec.ts';
import { mapLimit } from './limit.ts';
import type { Logger } from './log.ts';
import type { Metrics } from './metrics.ts';
import { believedPages, type Job } from './pdf.ts';
import { parsePgm, renderPage } from './similarity.ts';
import { sniffKind } from './sniff.ts';
import { extractZip, listZip } from './zip.ts';

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
/** A page rendered this small is enough to tell blank from not. */
const blankDpi = 9;
/**
 * Reading the pages between sampled ones costs about their share of the file's bytes; one run of
 * pdftotext or pdftoppm fewer saves about what reading this many bytes costs (a run starts in some
 * 20 ms; a page renders at 9 dpi in about 0.5 ms per KB of its share, and its text is faster still).
 */
export const runWorthBytes = 40 * 1024;

function timeLeft(job: Job): number {
  return Math.max(1000, job.deadline - Date.now());
}

async function run(job: Job, cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return exec(cmd, args, { timeoutMs: timeLeft(job), signal: job.signal, maxOutput: 64 * 1024 * 1024 });
}

/** A PDF opens when qpdf's full check finds no error (warnings are fine: it repaired them). */
export async function pdfOpens(path: string, job: Job): Promise<boolean> {
  return (await openedPages(path, job)) !== undefined;
}

/**
 * qpdf's full check and the page count in one run: undefined when the PDF does not open, NaN when it
 * opens but its pages cannot be counted.
 */
export async function openedPages(path: string, job: Job): Promise<number | undefined> {
  const { code, stdout } = await run(job, 'qpdf', ['--check', '--show-npages', path]);
  if (code !== 0 && code !== 3) return undefined;
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return /^\d+$/.test(last) ? believedPages(Number(last), path, job) : NaN;
}

export async function pdfPages(path: string, job: Job): Promise<number> {
  const { code, stdout } = await run(job, 'qpdf', ['--show-npages', path]);
  return code === 0 || code === 3 ? believedPages(Number(stdout.trim()), path, job) : NaN;
}

/** One page's text as pdftotext reads it. */
export async function pageText(path: string, page: number, job: Job): Promise<string> {
  const args = ['-q', '-enc', 'UTF-8', '-f', String(page), '-l', String(page), path, '-'];
  return (await run(job, 'pdftotext', args)).stdout.normalize('NFKC');
}

/**
 * Several pages' text: one pdftotext over their span when that is cheaper (see spanOf; pages end with
 * a form feed), else one run per page; a span that does not split into its pages is read page by page.
 */
async function pagesText(path: string, pages: number[], bytesPerPage: number, job: Job): Promise<Map<number, string>> {
  const span = spanOf(pages, bytesPerPage);
  if (span) {
    const args = ['-q', '-enc', 'UTF-8', '-f', String(span.first), '-l', String(span.last), path, '-'];
    const texts = (await run(job, 'pdftotext', args)).stdout.normalize('NFKC').split('\f');
    if (texts.length === span.last - span.first + 2) return new Map(pages.map((p) => [p, texts[p - span.first]!]));
  }
  const texts = await mapLimit(pages, 2, (p) => pageText(path, p, job));
  return new Map(pages.map((p, i) => [p, texts[i]!]));
}

/**
 * The range to read in one run when that is cheaper than a run per page: when the pages in between,
 * at the file's bytes per page plus what each page costs whatever its size (`pageBytes`, in bytes of
 * reading), cost less than the runs it saves. Else undefined.
 */
export function spanOf(
  pages: number[],
  bytesPerPage: number,
  pageBytes = 0,
): { first: number; last: number } | undefined {
  const first = Math.min(...pages);
  const last = Math.max(...pages);
  const between = last - first + 1 - pages.length;
  const cost = between * (bytesPerPage + pageBytes);
  return pages.length > 1 && cost <= (pages.length - 1) * runWorthBytes ? { first, last } : undefined;
}

/**
 * A page pdftoppm renders is also a file written, read back and removed: some 0.4 ms here however
 * small the page, as much as reading this many bytes of one (2,200 tiny pages took 0.9 s, mostly so).
 */
export const renderedPageBytes = 1024;

const letters = (word: string) => [...word].sort().join('');

/** A text's words; pdftotext's directional marks around right-to-left runs are not part of them. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/\p{Cf}+/gu, '')
    .split(/\s+/)
    .filter(Boolean);
}

/** Whether a page renders to white (or one flat colour) only. */
export async function pageIsBlank(path: string, page: number, job: Job): Promise<boolean> {
  const grey = await renderPage(path, page, blankDpi, job);
  return grey ? isFlat(grey.data) : false; // unrenderable pages are not called blank here; opening is checked apart
}

/** Which of several pages render blank: one pdftoppm over their span when that is cheaper (see spanOf). */
async function blankPages(
  path: string,
  pages: number[],
  bytesPerPage: number,
  job: Job,
  dir: string,
): Promise<Map<number, boolean>> {
  const span = spanOf(pages, bytesPerPage, renderedPageBytes);
  if (span) {
    const out = join(dir, `blank-${Math.random().toString(36).slice(2)}`);
    await mkdir(out);
    const args = ['-q', '-gray', '-r', String(blankDpi), '-f', String(span.first), '-l', String(span.last)];
    await run(job, 'pdftoppm', [...args, path, join(out, 'p')]);
    // Named p-7.pgm, p-07.pgm or p-007.pgm, padded to the document's page count.
    const rendered = new Map((await readdir(out)).map((f) => [Number(/-(\d+)\.pgm$/.exec(f)?.[1]), join(out, f)]));
    if (pages.every((p) => rendered.has(p))) {
      const flat = async (p: number) => {
        const grey = parsePgm(await readFile(rendered.get(p)!));
        return grey ? isFlat(grey.data) : false;
      };
      return new Map(await Promise.all(pages.map(async (p) => [p, await flat(p)] as const)));
    }
  }
  const blank = await mapLimit(pages, 2, (p) => pageIsBlank(path, p, job));
  return new Map(pages.map((p, i) => [p, blank[i]!]));
}

/** Whether a rendered page is one flat colour. */
function isFlat(pixels: Uint8Array): boolean {
  let min = 255;
  let max = 0;
  for (const v of pixels) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return max - min < 8;
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
 * What earlier verifications of a job read, by file content: a job that checks several
 * candidates against one input (compress), then its result, reads the input and the result once.
 * Only what the external tools answered is kept (an opening, a page count, a page's text or
 * blankness), never a verdict; a read that failed is dropped, so the next call tries afresh.
 */
export class VerifyCache {
  private readonly reads = new Map<string, Promise<unknown>>();

  has(key: string): boolean {
    return this.reads.has(key);
  }

  /** The answer kept under `key`, else `read`'s, kept from now on unless it fails. */
  get<T>(key: string, read: () => Promise<T>): Promise<T> {
    const had = this.reads.get(key) as Promise<T> | undefined;
    if (had) return had;
    const made = read();
    this.reads.set(key, made);
    made.catch(() => this.reads.get(key) === made && this.reads.delete(key));
    return made;
  }
}

/** Each job's cache, kept while its signal lives: every call given the job's context shares it. */
const jobCaches = new WeakMap<AbortSignal, VerifyCache>();

function jobCache(job: Job): VerifyCache {
  let cache = jobCaches.get(job.signal);
  if (!cache) jobCaches.set(job.signal, (cache = new VerifyCache()));
  return cache;
}

/** A file's content, as a key: its size and SHA-256, streamed (about 4 ms a megabyte here). */
async function fingerprint(path: string): Promise<string> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return `${size}:${hash.digest('hex')}`;
}

/**
 * A split's parts joined in order into one file, whose pages are then read in as few runs as a
 * document's, not three runs a part; undefined when there is only one part or qpdf cannot join them
 * without a warning (they are then read one by one). Each part is still opened and counted alone.
 */
async function joinParts(parts: string[], out: string, job: Job): Promise<string | undefined> {
  if (parts.length < 2) return undefined;
  const { code } = await run(job, 'qpdf', ['--empty', '--pages', ...parts, '--', out]);
  return code === 0 ? out : undefined;
}

/** One output page and the input page it must match. */
interface PagePair {
  out: { file: string; page: number };
  in: { file: string; page: number };
}

export interface VerifyRequest {
  tool: Tool;
  /** The inputs as the tool read them: PDFs already decrypted. */
  inputs: { path: string; kind: FileKind }[];
  options: Record<string, unknown>;
  result: { path: string; kind: FileKind };
  job: Job;
  /** What earlier checks read, to be reused; by default the job's own, shared by calls with its signal. */
  cache?: VerifyCache;
}

/**
 * Checks a result against what its tool promises (the catalog's `checks`): that it opens, that its
 * pages follow from the input's, that no text went missing and no page went blank. Returns the names
 * of the checks passed; throws a VerificationError naming the first that failed.
 */
export async function verifyResult(req: VerifyRequest): Promise<string[]> {
  const { tool, result, job } = req;
  const passed: string[] = [];
  const dir = join(job.workdir, 'verify');
  await mkdir(dir, { recursive: true });
  const promise = tool.checks;
  const cache = req.cache ?? jobCache(job);
  const hashes = new Map<string, Promise<string>>();
  const idOf = (path: string): Promise<string> => {
    if (!hashes.has(path)) hashes.set(path, fingerprint(path));
    return hashes.get(path)!;
  };
  /** What was read of a file before in this job, by its content, else read now. */
  const recall = async <T>(path: string, what: string, read: () => Promise<T>): Promise<T> =>
    cache.get(`${await idOf(path)} ${what}`, read);
  // The inputs' pages are counted while the output is checked; nothing waits for them if it fails.
  const inputPdfs = req.inputs.filter((i) => i.kind === 'pdf').map((i) => i.path);
  const counting =
    promise.pages === 'none'
      ? Promise.resolve([])
      : Promise.all(inputPdfs.map((p) => recall(p, 'pages', () => pdfPages(p, job))));
  counting.catch(() => undefined);

  // 1. The output opens; a PDF's pages are counted in the same run.
  let outputPages = NaN;
  /** For a zip: how many entries, and the sampled ones unpacked, opened and counted. */
  let partCount = 0;
  let parts: { index: number; file: string; pages: number }[] = [];
  /** A split's sampled parts joined into one file for reading (see joinParts). */
  let joined: string | undefined;
  if (result.kind === 'pdf') {
    const pages = await recall(result.path, 'opened', () => openedPages(result.path, job));
    if (pages === undefined) throw new VerificationError('opens', 'qpdf --check failed');
    outputPages = pages;
  } else if (result.kind === 'zip') {
    const names = await listZip(result.path).catch(() => undefined);
    if (!names || names.length === 0) throw new VerificationError('opens', 'zip is empty or unreadable');
    // Every entry is counted; a spread of them is unpacked and opened, so a split of a thousand pages stays cheap.
    partCount = names.filter((n) => !n.endsWith('/')).length;
    const picked = samplePageNumbers(partCount);
    const files = await extractZip(result.path, join(dir, 'zip'), (i) => picked.includes(i + 1));
    // A split's parts are joined for reading while each is opened and counted (see joinParts).
    const joining = promise.pages === 'per-range' ? joinParts(files, join(dir, 'parts.pdf'), job) : undefined;
    joining?.catch(() => undefined);
    // A part that fails ends the check only once the join has ended too: nothing runs on after it.
    parts = await mapLimit(picked, 2, async (n, k) => {
      const file = files[k]!;
      const kind = await sniffKind(file);
      const pages =
        kind === 'pdf' ? await recall(file, 'opened', () => openedPages(file, job)) : kind ? NaN : undefined;
      if (pages === undefined) throw new VerificationError('opens', `zip entry ${n} does not open`);
      return { index: n - 1, file, pages };
    }).catch(async (err: unknown) => {
      await joining?.catch(() => undefined);
      throw err;
    });
    joined = await joining;
  } else if (result.kind === 'docx' || result.kind === 'xlsx' || result.kind === 'pptx') {
    const main = { docx: 'word/document.xml', xlsx: 'xl/workbook.xml', pptx: 'ppt/presentation.xml' }[result.kind];
    const names = await listZip(result.path).catch(() => [] as string[]);
    if (!names.includes('[Content_Types].xml') || !names.includes(main)) {
      throw new VerificationError('opens', `${result.kind} package lacks its main part`);
    }
  } else {
    const text = await readFile(result.path);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(text);
    } catch {
      throw new VerificationError('opens', 'text is not valid UTF-8');
    }
  }
  passed.push('opens');
  if (promise.pages === 'none') return passed;

  // 2. Pages follow from the input's.
  const inputPages = await counting;
  const pairs: PagePair[] = [];
  const expectPages = (got: number, want: number, what: string) => {
    if (got !== want) throw new VerificationError('pages', `${what}: ${got} pages, expected ${want}`);
  };
  const [firstIn] = inputPdfs;
  // An input only poppler could read (the tool managed, qpdf cannot count it) leaves nothing to compare with.
  if (inputPages.some((n) => Number.isNaN(n))) return passed;
  /** Each file's pages, to judge what reading a span of them costs. */
  const pageCounts = new Map<string, number>([
    ...inputPdfs.map((f, i) => [f, inputPages[i]!] as const),
    [result.path, outputPages],
    ...parts.map((p) => [p.file, p.pages] as const),
  ]);
  switch (promise.pages) {
    case 'same':
      expectPages(outputPages, inputPages[0]!, 'output');
      for (let p = 1; p <= outputPages; p++)
        pairs.push({ out: { file: result.path, page: p }, in: { file: firstIn!, page: p } });
      break;
    case 'sum': {
      expectPages(
        outputPages,
        inputPages.reduce((a, b) => a + b, 0),
        'output',
      );
      let p = 1;
      for (const [i, file] of inputPdfs.entries())
        for (let q = 1; q <= inputPages[i]!; q++)
          pairs.push({ out: { file: result.path, page: p++ }, in: { file, page: q } });
      break;
    }
    case 'kept': {
      const removed = new Set(pagesOf(String(req.options.pages), inputPages[0]!));
      const kept = Array.from({ length: inputPages[0]! }, (_, i) => i + 1).filter((p) => !removed.has(p));
      expectPages(outputPages, kept.length, 'output');
      kept.forEach((q, i) => pairs.push({ out: { file: result.path, page: i + 1 }, in: { file: firstIn!, page: q } }));
      break;
    }
    case 'per-range': {
      const ranges =
        typeof req.options.ranges === 'string'
          ? expandPageRanges(parsePageRanges(req.options.ranges), inputPages[0]!)
          : Array.from({ length: inputPages[0]! }, (_, i) => [i + 1]);
      if (partCount !== ranges.length)
        throw new VerificationError('pages', `${partCount} files for ${ranges.length} ranges`);
      for (const { index, pages } of parts) expectPages(pages, ranges[index]!.length, `part ${index + 1}`);
      let at = 0;
      for (const { index, file } of parts) {
        ranges[index]!.forEach((q, i) => {
          const out = joined ? { file: joined, page: ++at } : { file, page: i + 1 };
          pairs.push({ out, in: { file: firstIn!, page: q } });
        });
      }
      if (joined) pageCounts.set(joined, at);
      break;
    }
    case 'per-page':
      if (partCount !== inputPages[0])
        throw new VerificationError('pages', `${partCount} images for ${inputPages[0]} pages`);
      break;
    case 'per-file':
      if (!(outputPages >= req.inputs.length))
        throw new VerificationError('pages', `${outputPages} pages for ${req.inputs.length} files`);
      break;
    case 'some':
      if (!(outputPages >= 1)) throw new VerificationError('pages', 'no pages');
      break;
  }
  passed.push('pages');
  if (pairs.length === 0) return passed;

  // 3 and 4. Text and pixels, on a sample of pages for long documents. The checks are many short runs:
  // each file's sampled pages are read in as few as they allow, text and renders side by side, and an
  // input page is rendered only to excuse an output page that came out blank.
  const sample = samplePageNumbers(pairs.length).map((i) => pairs[i - 1]!);
  const mark = promise.text === 'added' ? wordsOf(String(req.options.text ?? '')) : [];
  /** Each file's pages, read in as few runs as they allow (two files at a time), or as read before. */
  const readPages = async <T>(
    refs: { file: string; page: number }[],
    what: string,
    read: (file: string, pages: number[], bytesPerPage: number) => Promise<Map<number, T>>,
  ): Promise<Map<string, Map<number, T>>> => {
    const byFile = new Map<string, Set<number>>();
    for (const { file, page } of refs) byFile.set(file, (byFile.get(file) ?? new Set()).add(page));
    const files = [...byFile].map(([file, pages]) => [file, [...pages].sort((a, b) => a - b)] as const);
    const found = await mapLimit(files, 2, async ([file, pages]) => {
      const [id, { size }] = await Promise.all([idOf(file), stat(file)]);
      const bytesPerPage = size / (pageCounts.get(file) ?? 1);
      const key = (page: number) => `${id} ${what} ${page}`;
      // The pages not read before in this job, in one go; a page read before comes from the cache.
      const missing = pages.filter((p) => !cache.has(key(p)));
      const batch = missing.length ? read(file, missing, bytesPerPage) : undefined;
      const readPage = async (p: number) =>
        (await (batch && missing.includes(p) ? batch : read(file, [p], bytesPerPage))).get(p)!;
      const got = pages.map((p) => cache.get(key(p), () => readPage(p)));
      return new Map(await Promise.all(got.map(async (g, i) => [pages[i]!, await g] as const)));
    });
    return new Map(files.map(([file], i) => [file, found[i]!]));
  };
  const [texts, outBlank] = await Promise.all([
    promise.text
      ? readPages(
          sample.flatMap((p) => [p.in, p.out]),
          'text',
          (f, pages, bytesPerPage) => pagesText(f, pages, bytesPerPage, job),
        )
      : undefined,
    promise.pixels
      ? readPages(
          sample.map((p) => p.out),
          'blank',
          (f, pages, bytesPerPage) => blankPages(f, pages, bytesPerPage, job, dir),
        )
      : undefined,
  ]);
  if (texts) {
    // pdftotext groups a page's words as the page is shown: once turned, formulas and forms read as
    // other words. Pages that differ are read again with every page of both files unturned, where
    // their words are drawn alike; a word lost is lost in both readings.
    const regrouped = sample.filter((pair) => !keepsText(pair, texts, mark));
    if (regrouped.length > 0) {
      const unturned = new Map<string, string>();
      for (const file of new Set(regrouped.flatMap((p) => [p.in.file, p.out.file]))) {
        const copy = join(dir, `unturned-${unturned.size}.pdf`);
        const { code } = await run(job, 'qpdf', ['--no-warn', file, '--rotate=0', copy]);
        if (code !== 0 && code !== 3) throw new VerificationError('text', 'a page could not be read unturned');
        unturned.set(file, copy);
        pageCounts.set(copy, pageCounts.get(file) ?? 1);
      }
      const flat = regrouped.map((p) => ({
        in: { file: unturned.get(p.in.file)!, page: p.in.page },
        out: { file: unturned.get(p.out.file)!, page: p.out.page },
      }));
      const again = await readPages(
        flat.flatMap((p) => [p.in, p.out]),
        'text',
        (f, pages, bytesPerPage) => pagesText(f, pages, bytesPerPage, job),
      );
      for (const pair of flat) checkText(pair, again, mark);
    }
    passed.push('text');
  }
  if (outBlank) {
    const blank = sample.filter((p) => outBlank.get(p.out.file)!.get(p.out.page));
    if (blank.length > 0) {
      const inBlank = await readPages(
        blank.map((p) => p.in),
        'blank',
        (f, pages, bytesPerPage) => blankPages(f, pages, bytesPerPage, job, dir),
      );
      const lost = blank.find((p) => !inBlank.get(p.in.file)!.get(p.in.page));
      if (lost) throw new VerificationError('pixels', `page ${lost.out.page} came out blank`);
    }
    passed.push('pixels');
  }
  return passed;
}

/**
 * verifyResult as every route that offers results calls it: a failure is counted under `label` in
 * quire_verification_failures_total and logged with the check that failed (never the contents).
 */
export async function verifyCounted(
  req: VerifyRequest,
  label: string,
  kit: { metrics: Metrics; log: Logger },
): Promise<string[]> {
  try {
    return await verifyResult(req);
  } catch (err) {
    if (err instanceof VerificationError) {
      kit.metrics.verificationFailures.inc({ tool: label, check: err.check });
      kit.log.warn('result failed verification', { tool: label, check: err.check, cause: String(err.cause) });
    }
    throw err;
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
  // Letters sorted within each word: right-to-left text comes out of extraction in either direction.
  const beforeWords = wordsOf(before).map(letters);
  const missing = missingItems(beforeWords, wordsOf(own).map(letters));
  if (missing.length > Math.floor(beforeWords.length * wordLossTolerance)) {
    throw new VerificationError('text', `page ${pair.out.page} lost ${missing.length} of ${beforeWords.length} words`);
  }
}
