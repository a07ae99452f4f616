import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { exec, mapLimit, timeLeft, type Job } from '@quire/base';
import { believedPages, pageCountOrNaN } from './page-count.ts';
import { parsePgm, renderPage } from './similarity.ts';

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

export async function run(
  job: Job,
  cmd: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return exec(cmd, args, { timeoutMs: timeLeft(job.deadline), signal: job.signal, maxOutput: 64 * 1024 * 1024 });
}

/**
 * qpdf's full check and the page count in one run: undefined when the PDF does not open, NaN when it
 * opens but its pages cannot be counted.
 */
async function openedPages(path: string, job: Job): Promise<number | undefined> {
  const { code, stdout } = await run(job, 'qpdf', ['--check', '--show-npages', path]);
  if (code !== 0 && code !== 3) return undefined;
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return /^\d+$/.test(last) ? believedPages(Number(last), path, job) : NaN;
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
    await mkdir(out, { recursive: true });
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

export interface PageRef {
  file: string;
  page: number;
}

export type PageReading = 'text' | 'blank';

/**
 * What one check reads of its files, through the cache: openings, page counts, and pages' text and
 * blankness, each file's pages in as few runs as they allow (two files at a time).
 */
export class PageReads {
  private readonly hashes = new Map<string, Promise<string>>();
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

  private idOf(path: string): Promise<string> {
    if (!this.hashes.has(path)) this.hashes.set(path, fingerprint(path));
    return this.hashes.get(path)!;
  }

  /** What was read of a file before in this job, by its content, else read now. */
  async recall<T>(path: string, what: string, read: () => Promise<T>): Promise<T> {
    return this.cache.get(`${await this.idOf(path)} ${what}`, read);
  }

  /** A PDF's opening and page count (see openedPages). */
  opened(path: string): Promise<number | undefined> {
    return this.recall(path, 'opened', () => openedPages(path, this.job));
  }

  /** Whether a PDF passes qpdf's full check without a warning: nothing in it had to be repaired. */
  sound(path: string): Promise<boolean> {
    return this.recall(path, 'sound', async () => (await run(this.job, 'qpdf', ['--check', path])).code === 0);
  }

  /** PDFs' page counts, each NaN when qpdf cannot count it. */
  count(paths: string[]): Promise<number[]> {
    return Promise.all(paths.map((p) => this.recall(p, 'pages', () => pageCountOrNaN(p, this.job))));
  }

  /** The pages' text or blankness, by file and page; a page read before in this job is not read again. */
  async pages<T extends PageReading>(
    refs: PageRef[],
    what: T,
  ): Promise<Map<string, Map<number, T extends 'text' ? string : boolean>>> {
    type Answer = T extends 'text' ? string : boolean;
    const read = (file: string, pages: number[], bytesPerPage: number) =>
      (what === 'text'
        ? pagesText(file, pages, bytesPerPage, this.job)
        : blankPages(file, pages, bytesPerPage, this.job, this.dir)) as Promise<Map<number, Answer>>;
    const byFile = new Map<string, Set<number>>();
    for (const { file, page } of refs) byFile.set(file, (byFile.get(file) ?? new Set()).add(page));
    const files = [...byFile].map(([file, pages]) => [file, [...pages].sort((a, b) => a - b)] as const);
    const found = await mapLimit(files, 2, async ([file, pages]) => {
      const [id, { size }] = await Promise.all([this.idOf(file), stat(file)]);
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
