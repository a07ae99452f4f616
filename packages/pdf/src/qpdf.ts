import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exec, timeLeft, ToolError, type Job } from '@quire/base';
import { trailerEncrypts } from './trailer.ts';

/**
 * Runs qpdf. Exit 3 means it repaired or warned and still wrote a good file, so it counts as success;
 * exit 2 is the input's fault (damaged or a bad password), reported as the contract's code.
 */
export async function qpdf(args: readonly string[], job: Job): Promise<string> {
  const { code, stdout, stderr } = await exec('qpdf', ['--no-warn', ...args], {
    timeoutMs: timeLeft(job.deadline),
    signal: job.signal,
  });
  if (code === 0 || code === 3) return stdout;
  if (/invalid password/i.test(stderr)) throw new ToolError('wrong_password', undefined, { cause: new Error(stderr) });
  throw new ToolError('damaged_input', undefined, { cause: new Error(`qpdf exit ${code}: ${stderr.slice(0, 2000)}`) });
}

let passwordFiles = 0;

/**
 * Runs `work` with the qpdf arguments that give it a password: a private file, never the process list,
 * removed once the work is done, so that a password is kept no longer than it is used. No password (or
 * an empty one) gives no arguments.
 */
export async function withPassword<T>(
  password: string | undefined,
  job: Job,
  work: (args: string[]) => Promise<T>,
): Promise<T> {
  if (password === undefined || password === '') return work([]);
  const file = join(job.workdir, `pw-${++passwordFiles}`);
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  try {
    return await work([`--password-file=${file}`]);
  } finally {
    await rm(file, { force: true });
  }
}

export type Encryption = 'none' | 'open' | 'locked';

/** Whether a PDF is encrypted and whether this password (or none) opens it. */
export async function encryption(path: string, password: string | undefined, job: Job): Promise<Encryption> {
  // Most PDFs plainly say they are not: no program is started for them.
  if ((await trailerEncrypts(path).catch(() => undefined)) === false) return 'none';
  const { code } = await withPassword(password, job, (pw) =>
    exec('qpdf', ['--requires-password', ...pw, path], { timeoutMs: timeLeft(job.deadline), signal: job.signal }),
  );
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
  await withPassword(password, job, (pw) => qpdf([...pw, '--decrypt', path, out], job));
  return out;
}
