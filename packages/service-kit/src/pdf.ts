import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from './errors.ts';
import { exec } from './exec.ts';

export interface Job {
  workdir: string;
  signal: AbortSignal;
  deadline: number;
}

function timeLeft(job: Job): number {
  return Math.max(1000, job.deadline - Date.now());
}

/**
 * Runs qpdf. Exit 3 means it repaired or warned and still wrote a good file, so it counts as success;
 * exit 2 is the input's fault (damaged or a bad password), reported as the contract's code.
 */
export async function qpdf(args: readonly string[], job: Job): Promise<string> {
  const { code, stdout, stderr } = await exec('qpdf', ['--no-warn', ...args], {
    timeoutMs: timeLeft(job),
    signal: job.signal,
  });
  if (code === 0 || code === 3) return stdout;
  if (/invalid password/i.test(stderr)) throw new ToolError('wrong_password', undefined, { cause: new Error(stderr) });
  throw new ToolError('damaged_input', undefined, { cause: new Error(`qpdf exit ${code}: ${stderr.slice(0, 2000)}`) });
}

let passwordFiles = 0;

/** A password reaches qpdf through a private file, never the process list. */
async function passwordArg(password: string | undefined, job: Job): Promise<string[]> {
  if (password === undefined || password === '') return [];
  const file = join(job.workdir, `pw-${++passwordFiles}`);
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return [`--password-file=${file}`];
}

export type Encryption = 'none' | 'open' | 'locked';

/** Whether a PDF is encrypted and whether this password (or none) opens it. */
export async function encryption(path: string, password: string | undefined, job: Job): Promise<Encryption> {
  const { code } = await exec('qpdf', ['--requires-password', ...(await passwordArg(password, job)), path], {
    timeoutMs: timeLeft(job),
    signal: job.signal,
  });
  // qpdf: 0 = a password is needed (none given, or the wrong one); 2 = not encrypted; 3 = opens.
  return code === 0 ? 'locked' : code === 3 ? 'open' : 'none';
}

/**
 * A PDF ready for work: decrypted with the password when it is encrypted. Answers
 * `password_required` or `wrong_password` when it cannot be opened.
 */
export async function openPdf(path: string, password: string | undefined, job: Job, out: string): Promise<string> {
  const state = await encryption(path, password, job);
  if (state === 'locked') throw new ToolError(password ? 'wrong_password' : 'password_required');
  if (state === 'none') return path;
  await qpdf([...(await passwordArg(password, job)), '--decrypt', path, out], job);
  return out;
}

/** Beyond this many pages, the count a PDF claims is checked against its page tree. */
const claimedPagesTrusted = 2000;

/**
 * The pages a PDF claims (qpdf's --show-npages reads its /Count as stated), or, when the claim is large,
 * the pages its page tree really holds: a damaged or hostile file may claim billions, and nothing may
 * be sized by that. NaN when qpdf cannot read the tree.
 */
export async function believedPages(claimed: number, path: string, job: Job): Promise<number> {
  if (!(claimed > claimedPagesTrusted)) return claimed;
  const { code, stdout } = await exec('qpdf', ['--no-warn', '--show-pages', path], {
    timeoutMs: timeLeft(job),
    signal: job.signal,
    maxOutput: 64 * 1024 * 1024,
  });
  return code === 0 || code === 3 ? (stdout.match(/^page \d+:/gm)?.length ?? 0) : NaN;
}

/** The pages a PDF claims to have, and those believed (see believedPages); they differ in a lying file. */
export async function pageTree(path: string, job: Job): Promise<{ claimed: number; pages: number }> {
  const claimed = Number((await qpdf(['--show-npages', path], job)).trim());
  const pages = await believedPages(claimed, path, job);
  if (!Number.isInteger(pages) || pages < 1) throw new ToolError('damaged_input', 'The PDF has no pages.');
  return { claimed, pages };
}

export async function pageCount(path: string, job: Job): Promise<number> {
  return (await pageTree(path, job)).pages;
}

/** An image drawn on a page, as poppler's `pdfimages -list` lists it (masks included, typed so). */
export interface DrawnImage {
  page: number;
  /** `image`, `mask`, `smask` or `stencil`. */
  type: string;
  width: number;
  height: number;
  object: number;
  /** The resolution it is drawn at: pixels per inch of the page, the higher of its two axes. */
  ppi: number;
}

/**
 * Every image drawn on each page, without decoding any: poppler only reads their dictionaries. Empty
 * when poppler cannot read the file.
 */
export async function drawnImages(path: string, job: Job): Promise<DrawnImage[]> {
  const { code, stdout } = await exec('pdfimages', ['-list', path], {
    timeoutMs: timeLeft(job),
    signal: job.signal,
    maxOutput: 16 * 1024 * 1024,
  });
  if (code !== 0) return [];
  // page num type width height color comp bpc enc interp object gen x-ppi y-ppi size ratio
  return stdout
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 14)
    .map((cols) => ({
      page: Number(cols[0]),
      type: cols[2]!,
      width: Number(cols[3]),
      height: Number(cols[4]),
      object: Number(cols[10]),
      ppi: Math.max(Number(cols[12]), Number(cols[13])),
    }))
    .filter((image) => Number.isFinite(image.object) && Number.isFinite(image.ppi));
}
