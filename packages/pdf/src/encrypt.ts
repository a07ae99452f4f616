import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exec, timeLeft, ToolError, type Job } from '@quire/base';

/** What qpdf's 256-bit encryption grants: `print` is `full` or `none`; the others `y` or `n`. */
export interface PdfRestrictions {
  print: 'full' | 'none';
  extract: 'y' | 'n';
  modifyOther: 'y' | 'n';
  assemble: 'y' | 'n';
  annotate: 'y' | 'n';
  form: 'y' | 'n';
}

export interface EncryptSettings {
  /** Opens the PDF; empty opens it without a password, the restrictions still applying. */
  userPassword: string;
  /** May lift the restrictions; a random one that no one holds when not given, so that they hold. */
  ownerPassword?: string;
  restrictions: PdfRestrictions;
}

let jobFiles = 0;

/**
 * Encrypts `source` into `out` with AES-256 (R6). The passwords reach qpdf in a job file (never the
 * process list) removed once qpdf is done, and never appear in an error: what qpdf says about the
 * file has them taken out.
 */
export async function encryptPdf(source: string, out: string, settings: EncryptSettings, job: Job): Promise<void> {
  const owner = settings.ownerPassword || randomBytes(32).toString('base64url');
  const file = join(job.workdir, `encrypt-${++jobFiles}.json`);
  const encrypt = { userPassword: settings.userPassword, ownerPassword: owner, '256bit': settings.restrictions };
  await writeFile(file, JSON.stringify({ inputFile: source, outputFile: out, encrypt }), { mode: 0o600 });
  try {
    const { code, stderr } = await exec('qpdf', ['--no-warn', `--job-json-file=${file}`], {
      timeoutMs: timeLeft(job.deadline),
      signal: job.signal,
    });
    // Exit 3: qpdf repaired or warned, and still wrote a good file.
    if (code !== 0 && code !== 3) {
      const said = [settings.userPassword, owner]
        .filter(Boolean)
        .reduce((text, pw) => text.split(pw).join('…'), stderr);
      throw new ToolError('damaged_input', undefined, {
        cause: new Error(`qpdf exit ${code}: ${said.slice(0, 2000)}`),
      });
    }
  } finally {
    await rm(file, { force: true });
  }
}
