import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { exec, timeLeft, ToolError, type Job } from '@quire/base';
import type { OcrLanguage } from '@quire/catalog';
import type { Frag } from '../layout/types.ts';
import { tsvWords } from './words.ts';

/** Tesseract reads best at 300 dpi; a scan of lower resolution is enlarged to it. */
const dpi = 300;

/**
 * The words Tesseract reads on one page of a (decrypted) PDF, in page space: the page is rendered grey
 * by pdftoppm with its /Rotate applied, as the layout sees it. Both programs run under the job's time
 * and signal; one Tesseract thread each, since pages run side by side.
 */
export async function readPageWords(path: string, page: number, language: OcrLanguage[], job: Job): Promise<Frag[]> {
  const dir = join(job.workdir, 'ocr');
  await mkdir(dir, { recursive: true });
  const stem = join(dir, `page-${page}`);
  const pageArgs = ['-f', String(page), '-l', String(page)];
  const render = await exec('pdftoppm', ['-r', String(dpi), '-gray', '-png', '-singlefile', ...pageArgs, path, stem], {
    timeoutMs: timeLeft(job.deadline),
    signal: job.signal,
  });
  if (render.code !== 0)
    throw new ToolError('damaged_input', undefined, {
      cause: new Error(`pdftoppm page ${page} exit ${render.code}: ${render.stderr.slice(-2000)}`),
    });
  try {
    const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
    const read = await exec('tesseract', [`${stem}.png`, '-', '-l', language.join('+'), 'tsv'], {
      timeoutMs: timeLeft(job.deadline),
      signal: job.signal,
      env,
      maxOutput: 32 * 1024 * 1024,
    });
    if (read.code !== 0)
      throw new ToolError('internal', undefined, {
        cause: new Error(`tesseract page ${page} exit ${read.code}: ${read.stderr.slice(-2000)}`),
      });
    return tsvWords(read.stdout, 72 / dpi);
  } finally {
    await rm(`${stem}.png`, { force: true });
  }
}
