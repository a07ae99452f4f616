import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { exec, timeLeft, ToolError, type Job } from '@quire/base';
import type { OcrLanguage } from '@quire/catalog';
import type { Frag } from '../layout/types.ts';
import { maxOcrPixels } from './pages.ts';
import { tsvWords } from './words.ts';

/** The resolution a page without a scan's own is read at. */
const defaultDpi = 300;
/**
 * Words one page may give: a dense page of writing holds some 1,500, a newspaper's 5,000. A damaged
 * image's noise can read as a hundred thousand, which the layout analysis should not be given.
 */
const maxWordsPerPage = 10_000;

/** A page to read: its number and its size in points, as the layout sees it (/Rotate applied). */
export interface ScanPage {
  number: number;
  width: number;
  height: number;
}

/**
 * The words Tesseract reads on one page of a (decrypted) PDF, in page space: the page is rendered grey
 * by pdftoppm with its /Rotate applied, as the layout sees it, at its scan's own resolution. Both
 * programs run under the job's time and signal; one Tesseract thread each, since pages run side by side.
 */
export async function readPageWords(path: string, scan: ScanPage, language: OcrLanguage[], job: Job): Promise<Frag[]> {
  const dir = join(job.workdir, 'ocr');
  await mkdir(dir, { recursive: true });
  const page = scan.number;
  const stem = join(dir, `page-${page}`);
  const pageArgs = ['-f', String(page), '-l', String(page)];
  const dpi = renderDpi(await scanDpi(path, scan, job), scan);
  // A page too vast to read at any useful resolution (a damaged /MediaBox) keeps its picture.
  if (dpi < minDpi) return [];
  const render = await exec(
    'pdftoppm',
    ['-r', dpi.toFixed(3), '-gray', '-png', '-singlefile', ...pageArgs, path, stem],
    {
      timeoutMs: timeLeft(job.deadline),
      signal: job.signal,
    },
  );
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
    const words = tsvWords(read.stdout, 72 / dpi);
    // More words than any page of writing holds is noise read as text: the page keeps its picture.
    return words.length > maxWordsPerPage ? [] : words;
  } finally {
    await rm(`${stem}.png`, { force: true });
  }
}

/** Below this, letters of any ordinary size are a few pixels high: nothing Tesseract can read. */
const minDpi = 50;

/** The longest side Tesseract takes, in pixels (its image reader's limit is 32,767). */
const maxSide = 32_000;

/** The resolution, lowered when needed so that the rendered page stays within the OCR pixel bound. */
function renderDpi(dpi: number, scan: ScanPage): number {
  const pixels = ((scan.width * dpi) / 72) * ((scan.height * dpi) / 72);
  const byPixels = pixels > maxOcrPixels ? dpi * Math.sqrt(maxOcrPixels / pixels) : dpi;
  return Math.min(byPixels, (maxSide * 72) / Math.max(scan.width, scan.height));
}

/**
 * The resolution of a page's largest image, so that its pixels are rendered one for one: resampling a
 * scan (a 1-bit one above all) costs Tesseract words (on the corpus scan, word F1 0.99 at its own 150 dpi,
 * 0.96 at 300). pdfimages rounds it; when the image spans the page, its exact value follows from its width.
 * Brought within 120 to 600 dpi by whole factors.
 */
async function scanDpi(path: string, scan: ScanPage, job: Job): Promise<number> {
  const page = String(scan.number);
  const { code, stdout } = await exec('pdfimages', ['-list', '-f', page, '-l', page, path], {
    timeoutMs: timeLeft(job.deadline),
    signal: job.signal,
  });
  if (code !== 0) return defaultDpi;
  let best: { pixels: number; width: number; ppi: number } | undefined;
  for (const row of stdout.split('\n').slice(2)) {
    const c = row.trim().split(/\s+/);
    const [width, height, ppi] = [Number(c[3]), Number(c[4]), Number(c[12])];
    if (c[2] !== 'image' || !(ppi > 0) || (best && best.pixels >= width * height)) continue;
    best = { pixels: width * height, width, ppi };
  }
  if (!best) return defaultDpi;
  const spans = [scan.width, scan.height].map((side) => (best.width * 72) / side);
  let dpi = spans.find((d) => Math.abs(d - best.ppi) <= 1.5) ?? best.ppi;
  while (dpi < 120) dpi *= 2;
  while (dpi > 600) dpi /= 2;
  return dpi;
}
