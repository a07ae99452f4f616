import { stat } from 'node:fs/promises';
import { exec, timeLeft, ToolError, type Job } from '@quire/base';
import { qpdf } from './qpdf.ts';

/** Beyond this many pages, the count a PDF claims is checked against its page tree. */
export const claimedPagesTrusted = 2000;

/**
 * The pages a PDF claims (qpdf's --show-npages reads its /Count as stated), or, when the claim is large
 * or none, the pages its page tree really holds: a damaged or hostile file may claim billions, or no
 * page at all over a tree of twenty, and nothing may be sized or judged by that. A claim of exactly
 * the pages `expected` (a check's, which reads the last of them too) is taken as it is: walking a long
 * tree costs more than the rest of a check. NaN when qpdf cannot read the tree.
 */
export async function believedPages(claimed: number, path: string, job: Job, expected?: number): Promise<number> {
  if (claimed >= 1 && (claimed <= claimedPagesTrusted || claimed === expected)) return claimed;
  const { code, stdout } = await exec('qpdf', ['--no-warn', '--show-pages', path], {
    timeoutMs: timeLeft(job.deadline),
    signal: job.signal,
    maxOutput: 64 * 1024 * 1024,
  });
  return code === 0 || code === 3 ? (stdout.match(/^page \d+:/gm)?.length ?? 0) : NaN;
}

/**
 * The one page count: `qpdf --show-npages`, the pages the PDF claims and those believed (see
 * believedPages; they differ in a lying file). Throws as qpdf does on a damaged file or a bad password.
 */
async function countPagesNow(path: string, job: Job): Promise<{ claimed: number; pages: number }> {
  const claimed = Number((await qpdf(['--show-npages', path], job)).trim());
  return { claimed, pages: await believedPages(claimed, path, job) };
}

/** Each job's counts, by file as it is: a tool and the check of its result count an input once. */
const jobCounts = new WeakMap<AbortSignal, Map<string, Promise<{ claimed: number; pages: number }>>>();

/** countPagesNow, once per job while the file stays as it was (same inode, size and times); a failure is not kept. */
async function countPages(path: string, job: Job): Promise<{ claimed: number; pages: number }> {
  const s = await stat(path, { bigint: true });
  const key = `${path} ${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  let counts = jobCounts.get(job.signal);
  if (!counts) jobCounts.set(job.signal, (counts = new Map()));
  const known = counts.get(key);
  if (known) return known;
  const counting = countPagesNow(path, job);
  counts.set(key, counting);
  counting.catch(() => counts.delete(key));
  return counting;
}

/** The pages a PDF claims and those believed; `damaged_input` when it has none to work on. */
export async function pageTree(path: string, job: Job): Promise<{ claimed: number; pages: number }> {
  const tree = await countPages(path, job);
  if (!Number.isInteger(tree.pages) || tree.pages < 1) throw new ToolError('damaged_input', 'The PDF has no pages.');
  return tree;
}

/** A PDF's pages, for a tool that works on them: an error when it has none. */
export async function pageCount(path: string, job: Job): Promise<number> {
  return (await pageTree(path, job)).pages;
}

/**
 * A PDF's pages as a check reads them: NaN, not an error, when qpdf cannot read the file (a check
 * then has nothing to compare with); a job stopped still stops it.
 */
export async function pageCountOrNaN(path: string, job: Job): Promise<number> {
  try {
    return (await countPages(path, job)).pages;
  } catch (err) {
    if (err instanceof ToolError && (err.code === 'damaged_input' || err.code === 'wrong_password')) return NaN;
    throw err;
  }
}
