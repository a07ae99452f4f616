import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exec, mapLimit, timeLeft, type Job } from '@quire/base';
import { believedPages, claimedPagesTrusted, pageCountOrNaN } from './page-count.ts';
import { parsePgm, renderPage, renderSpan, type Grey } from './similarity.ts';

/** A page rendered this small is enough to tell blank from not. */
const blankDpi = 9;
/**
 * Reading the pages between sampled ones costs about their share of the file's bytes; one run of
 * pdftotext or pdftoppm fewer saves about what reading this many bytes costs (a run starts in some
 * 20 ms; a page renders at 9 dpi in about 0.5 ms per KB of its share, and its text is faster still).
 */
export const runWorthBytes = 40 * 1024;
/**
 * A page pdftoppm renders is also a file written, read back and removed: some 0.4 ms here however
 * small the page, as much as reading this many bytes of one (2,200 tiny pages took 0.9 s, mostly so).
 */
export const renderedPageBytes = 1024;
/**
 * Scattered pages of a long file are copied out by one qpdf run into a small file that is then read
 * in one run; the copy costs about as much as this many runs of reading (qpdf reads the page tree).
 */
export const copyCostRuns = 3;

export async function run(
  job: Job,
  cmd: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return exec(cmd, args, { timeoutMs: timeLeft(job.deadline), signal: job.signal, maxOutput: 64 * 1024 * 1024 });
}

/**
 * qpdf's full check and the page count in one run: the check's exit code (0 clean, 3 warnings: qpdf
 * repaired something to read it), and the pages, undefined when the PDF does not open, NaN when it
 * opens but its pages cannot be counted.
 */
async function checkedPages(path: string, job: Job): Promise<{ code: number; pages: number | undefined }> {
  const { code, stdout } = await run(job, 'qpdf', ['--check', '--show-npages', path]);
  if (code !== 0 && code !== 3) return { code, pages: undefined };
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return { code, pages: /^\d+$/.test(last) ? await believedPages(Number(last), path, job) : NaN };
}

/**
 * The pages a PDF reader shows: Poppler's count, which it finds in files qpdf cannot read (a trailer
 * lost, a page tree that loops). A count past what is trusted unchecked is taken from qpdf's walk of
 * the page tree instead (see believedPages): a damaged or hostile file may claim billions. NaN when
 * neither can tell.
 */
async function readerPageCount(path: string, job: Job): Promise<number> {
  const { stdout } = await run(job, 'pdfinfo', [path]);
  const claimed = Number(/^Pages:\s+(\d+)\s*$/m.exec(stdout)?.[1] ?? NaN);
  if (claimed >= 1 && claimed <= claimedPagesTrusted) return claimed;
  return pageCountOrNaN(path, job);
}

/**
 * A PDF's structure without its streams: its cross-reference table, trailer and page tree, read by
 * qpdf to count the pages (`expected` as believedPages takes it). undefined when it does not open, NaN
 * when its pages cannot be counted.
 */
async function structurePages(path: string, job: Job, expected?: number): Promise<number | undefined> {
  const { code, stdout } = await run(job, 'qpdf', ['--show-npages', path]);
  if (code !== 0 && code !== 3) return undefined;
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return /^\d+$/.test(last) ? believedPages(Number(last), path, job, expected) : NaN;
}

/** Larger than any inline image: the copy parses its pages' content streams and moves nothing out of them. */
const noInlineImageMoved = String(2 ** 31 - 1);

/**
 * qpdf's options that parse every page's content of what it writes (as if to move its inline images
 * out, none being large enough): a content stream that does not decode is then a warning, exit code 3.
 */
export const parseContent = ['--externalize-inline-images', `--ii-min-bytes=${noInlineImageMoved}`];

/** Whether qpdf, writing with parseContent, decoded every page's content. */
const decodes = (stderr: string) => !/errors while decoding content stream/.test(stderr);

const mupdfCount = fileURLToPath(new URL('./mupdf-count.js', import.meta.url));

/**
 * Several PDFs' page counts as MuPDF reads them, in one run rather than a run each. undefined unless
 * every file opened without a word on stderr, with a count from 1 to what is trusted unwalked.
 */
export async function mupdfPageCounts(paths: string[], job: Job): Promise<number[] | undefined> {
  try {
    const { code, stdout, stderr } = await run(job, 'mutool', ['run', mupdfCount, ...paths]);
    const counts = stdout.trim().split('\n').map(Number);
    const plausible = counts.every((n) => Number.isInteger(n) && n >= 1 && n <= claimedPagesTrusted);
    return code === 0 && !stderr.trim() && counts.length === paths.length && plausible ? counts : undefined;
  } catch (err) {
    // A job stopped is stopped; MuPDF missing leaves the counting to qpdf.
    if (job.signal.aborted) throw err;
    return undefined;
  }
}

/** Some pages copied into a small PDF (see copyPages): where they are, and whether their content decodes. */
interface PagesCopy {
  path: string;
  /** Asked once, the first time it is wanted: a copy made only to be read never has its content parsed. */
  decodes: () => Promise<boolean>;
}

/**
 * Some pages of a PDF copied into a small one, their streams as they are (neither decoded nor
 * recompressed), with what they use: reading or checking them there costs what those pages cost,
 * not what the whole file does. MuPDF picks the pages out when it can do so cleanly (see pickPages),
 * and the copy is read at once while qpdf, asked, parses each page's content there (see
 * contentDecodes); else qpdf copies them, parsing as it goes. undefined when neither can copy them.
 */
async function copyPages(path: string, pages: number[], out: string, job: Job): Promise<PagesCopy | undefined> {
  if (await pickPages(path, pages, out, job)) {
    let parsing: Promise<boolean> | undefined;
    return { path: out, decodes: () => (parsing ??= contentDecodes(path, pages, out, job)) };
  }
  const copied = await copyByQpdf(path, pages, out, job);
  return copied && { path: out, decodes: () => Promise.resolve(copied.decodes) };
}

/**
 * Whether the pages' content decodes (a content stream that does not is an error to qpdf's full check):
 * qpdf parses it in MuPDF's copy, as if to move its inline images out, none being large enough. A copy
 * qpdf cannot read is made again from the file by qpdf, which tells as it copies.
 */
async function contentDecodes(path: string, pages: number[], copy: string, job: Job): Promise<boolean> {
  const parsed = `${copy}.parsed.pdf`;
  try {
    const { code, stderr } = await run(job, 'qpdf', [copy, ...parseContent, parsed]);
    if (code === 0 || code === 3) return decodes(stderr);
    return (await copyByQpdf(path, pages, parsed, job))?.decodes ?? false;
  } finally {
    await rm(parsed, { force: true });
  }
}

/** Some pages copied out by qpdf, their content parsed as they are written (see parseContent). */
async function copyByQpdf(
  path: string,
  pages: number[],
  out: string,
  job: Job,
): Promise<{ decodes: boolean } | undefined> {
  const args = ['--empty', '--remove-unreferenced-resources=no', '--stream-data=preserve'];
  const { code, stderr } = await run(job, 'qpdf', [
    ...args,
    '--pages',
    path,
    pages.join(','),
    '--',
    ...parseContent,
    out,
  ]);
  if (code !== 0 && code !== 3) return undefined;
  return { decodes: decodes(stderr) };
}

const mupdfPick = fileURLToPath(new URL('./mupdf-pick.js', import.meta.url));

/**
 * Some pages of a PDF copied out by MuPDF (mupdf-pick.js), their streams as they are: some 10 ms on a
 * 1,100-page file, where qpdf first prepares every page of the file for a copy (35 ms). Only a clean
 * copy is taken: one that MuPDF made without a word on stderr (it repairs silently what qpdf would
 * warn of) and that holds every page asked for. False when MuPDF is missing or could not copy them
 * cleanly: qpdf copies them.
 */
async function pickPages(path: string, pages: number[], out: string, job: Job): Promise<boolean> {
  try {
    const { code, stdout, stderr } = await run(job, 'mutool', ['run', mupdfPick, path, out, pages.join(',')]);
    if (code === 0 && !stderr.trim() && stdout.trim() === String(pages.length)) return true;
  } catch (err) {
    // A job stopped is stopped; MuPDF missing or failing leaves the copy to qpdf.
    if (job.signal.aborted) throw err;
  }
  await rm(out, { force: true });
  return false;
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

/** Whether a page renders to white (or one flat colour) only. */
export async function pageIsBlank(path: string, page: number, job: Job): Promise<boolean> {
  return judges.blank(await renderPage(path, page, blankDpi, job));
}

/**
 * What a page rendered tiny is taken for: whether it is blank, or how it looks (`blank`, or a digest of
 * its pixels: a page shown twice looks the same both times). An unrenderable page is not called blank
 * here (opening is checked apart), and looks like no other.
 */
const judges = {
  blank: (grey: Grey | undefined): boolean => (grey ? isFlat(grey.data) : false),
  look: (grey: Grey | undefined): string =>
    !grey
      ? `unrendered ${randomUUID()}`
      : isFlat(grey.data)
        ? 'blank'
        : createHash('sha256').update(`${grey.width}x${grey.height}`).update(grey.data).digest('hex'),
};

/** How several pages render, judged (see judges): one pdftoppm over their span when that is cheaper (see spanOf). */
async function renderedPages<T>(
  path: string,
  pages: number[],
  bytesPerPage: number,
  job: Job,
  dir: string,
  judge: (grey: Grey | undefined) => T,
): Promise<Map<number, T>> {
  const span = spanOf(pages, bytesPerPage, renderedPageBytes);
  if (span) {
    const rendered = await renderSpan(path, { ...span, dpi: blankDpi }, job, dir);
    if (pages.every((p) => rendered.has(p))) {
      const judged = async (p: number) => judge(parsePgm(await readFile(rendered.get(p)!)));
      return new Map(await Promise.all(pages.map(async (p) => [p, await judged(p)] as const)));
    }
  }
  const judged = await mapLimit(pages, 2, async (p) => judge(await renderPage(path, p, blankDpi, job)));
  return new Map(pages.map((p, i) => [p, judged[i]!]));
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

/**
 * What earlier verifications of a job read, by file as it is (see fileKey): a job that checks several
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

/** Bytes read from each end of a file for its key: where a rewritten PDF differs (header, trailer, xref). */
const endBytes = 64 * 1024;

/**
 * A file as a key, without reading all of it: the file (device, inode), its size and change times,
 * and a digest of its first and last bytes. A file rewritten, even at the same path and within the
 * clock's tick, gets another key; reading a 100 MB file whole for a key would cost more than the check.
 */
async function fileKey(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const s = await handle.stat({ bigint: true });
    const size = Number(s.size);
    const hash = createHash('sha256');
    const buffer = Buffer.alloc(Math.min(size, endBytes));
    for (const at of size > endBytes ? [0, size - endBytes] : [0]) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      hash.update(buffer.subarray(0, bytesRead));
    }
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${hash.digest('hex')}`;
  } finally {
    await handle.close();
  }
}

export interface PageRef {
  file: string;
  page: number;
}

/** What is read of a page: its text, whether it is blank, or how it looks (see judges). */
export type PageReading = 'text' | 'blank' | 'look';

/**
 * What one check reads of its files, through the cache: openings, page counts, and pages' text and
 * blankness, each file's pages in as few runs as they allow (two files at a time).
 */
export class PageReads {
  /** Each file's pages, to judge what reading a span of them costs. */
  readonly pageCounts = new Map<string, number>();

  /** Where renders and copies are written: the job's `verify` folder. */
  readonly dir: string;

  /** `cache`: what earlier checks read; by default the job's own, shared by calls with its signal. */
  constructor(
    private readonly job: Job,
    private readonly cache: VerifyCache = jobCache(job),
  ) {
    this.dir = join(job.workdir, 'verify');
  }

  /** What was read of a file before in this job, while it stays as it was (see fileKey), else read now. */
  async recall<T>(path: string, what: string, read: () => Promise<T>): Promise<T> {
    return this.cache.get(`${await fileKey(path)} ${what}`, read);
  }

  /** qpdf's full check of a PDF and its page count, in one run (see checkedPages). */
  private checked(path: string): Promise<{ code: number; pages: number | undefined }> {
    return this.recall(path, 'checked', () => checkedPages(path, this.job));
  }

  /** A PDF's opening and page count: undefined when it does not open, NaN when its pages cannot be counted. */
  async opened(path: string): Promise<number | undefined> {
    return (await this.checked(path)).pages;
  }

  /** A PDF's structure and page count, its streams left alone (see structurePages). */
  structure(path: string, expected?: number): Promise<number | undefined> {
    return this.recall(path, `structure ${expected}`, () => structurePages(path, this.job, expected));
  }

  /** Some pages of a PDF copied into a small file of their own (see copyPages), once per job. */
  copy(path: string, pages: number[]): Promise<string | undefined> {
    return this.copied(path, pages).then((c) => c?.path);
  }

  private copied(path: string, pages: number[]): Promise<PagesCopy | undefined> {
    return this.recall(path, `copy ${pages.join(',')}`, async () => {
      await mkdir(this.dir, { recursive: true });
      const out = await copyPages(path, pages, join(this.dir, `copy-${randomUUID()}.pdf`), this.job);
      if (out) this.pageCounts.set(out.path, pages.length);
      return out;
    });
  }

  /**
   * Whether some pages' content streams all decode: what qpdf's full check of those pages would call
   * an error, found while copying them out (see copyPages), at the cost of those pages alone.
   */
  async pagesDecode(path: string, pages: number[]): Promise<boolean> {
    const copy = await this.copied(path, pages);
    return copy ? copy.decodes() : false;
  }

  /** Whether a PDF passes qpdf's full check without a warning: nothing in it had to be repaired. */
  async sound(path: string): Promise<boolean> {
    return (await this.checked(path)).code === 0;
  }

  /** PDFs' page counts, each NaN when qpdf cannot count it. */
  count(paths: string[]): Promise<number[]> {
    return Promise.all(paths.map((p) => this.recall(p, 'pages', () => pageCountOrNaN(p, this.job))));
  }

  /** PDFs' pages as a reader shows them (see readerPageCount), each NaN when none can count them. */
  readerCount(paths: string[]): Promise<number[]> {
    return Promise.all(paths.map((p) => this.recall(p, 'reader pages', () => readerPageCount(p, this.job))));
  }

  /** The pages' text, blankness or look, by file and page; a page read before in this job is not read again. */
  async pages<T extends PageReading>(
    refs: PageRef[],
    what: T,
  ): Promise<Map<string, Map<number, T extends 'blank' ? boolean : string>>> {
    type Answer = T extends 'blank' ? boolean : string;
    const readIn = (file: string, pages: number[], bytesPerPage: number) =>
      (what === 'text'
        ? pagesText(file, pages, bytesPerPage, this.job)
        : renderedPages<unknown>(
            file,
            pages,
            bytesPerPage,
            this.job,
            this.dir,
            judges[what as 'blank' | 'look'],
          )) as Promise<Map<number, Answer>>;
    // Pages too far apart to read in one run, and enough of them, are copied out and read there in one.
    const read = async (file: string, pages: number[], bytesPerPage: number) => {
      const pageBytes = what === 'text' ? 0 : renderedPageBytes;
      const worth = pages.length > copyCostRuns && !spanOf(pages, bytesPerPage, pageBytes);
      const copy = worth ? await this.copy(file, pages) : undefined;
      if (!copy) return readIn(file, pages, bytesPerPage);
      const { size } = await stat(copy);
      const found = await readIn(
        copy,
        pages.map((_, i) => i + 1),
        size / pages.length,
      );
      return new Map(pages.map((p, i) => [p, found.get(i + 1)!]));
    };
    const byFile = new Map<string, Set<number>>();
    for (const { file, page } of refs) byFile.set(file, (byFile.get(file) ?? new Set()).add(page));
    const files = [...byFile].map(([file, pages]) => [file, [...pages].sort((a, b) => a - b)] as const);
    const found = await mapLimit(files, 2, async ([file, pages]) => {
      const [id, { size }] = await Promise.all([fileKey(file), stat(file)]);
      const bytesPerPage = size / (this.pageCounts.get(file) ?? 1);
      const key = (page: number) => `${id} ${what} ${page}`;
      // The pages not read before in this job, in one go; a page read before comes from the cache.
      const missing = pages.filter((p) => !this.cache.has(key(p)));
      const batch = missing.length ? read(file, missing, bytesPerPage) : undefined;
      const readPage = async (p: number) =>
        (await (batch && missing.includes(p) ? batch : read(file, [p], bytesPerPage))).get(p)!;
      const got = pages.map((p) => this.cache.get(key(p), () => readPage(p)));
      return new Map(await Promise.all(got.map(async (g, i) => [pages[i]!, await g] as const)));
    });
    return new Map(files.map(([file], i) => [file, found[i]!]));
  }
}
