import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ssim } from 'ssim.js';
import { exec, timeLeft, type Job } from '@quire/base';

/** Grey pixels of one image, row by row. */
export interface Grey {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Mean SSIM of two images of one size, 1 for identical (Wang et al.; ssim.js's "weber" variant), on
 * their luma. As in Wang's reference code, images are first scaled down so that their short side is
 * about 256 pixels, which is what the eye at reading distance resolves and keeps a page to milliseconds.
 */
export function similarity(a: Uint8Array, b: Uint8Array, width: number, height: number, channels: number): number {
  // A tiny image has no room for SSIM's window: equal or not is all it can tell.
  if (width < 12 || height < 12) return Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0 ? 1 : 0;
  const factor = Math.max(1, Math.round(Math.min(width, height) / 256));
  const [x, y] = [a, b].map((pixels) => rgba(shrink(pixels, width, height, channels, factor)));
  return ssim(x!, y!, { ssim: 'weber', downsample: false }).mssim;
}

/** Luma averaged over `factor`×`factor` blocks. */
function shrink(pixels: Uint8Array, width: number, height: number, channels: number, factor: number): Grey {
  const w = Math.floor(width / factor);
  const h = Math.floor(height / factor);
  const sums = new Float64Array(w * h);
  for (let row = 0; row < h * factor; row++) {
    const line = row * width * channels;
    const out = Math.floor(row / factor) * w;
    for (let col = 0; col < w * factor; col++) {
      const i = line + col * channels;
      const luma = channels < 3 ? pixels[i]! : 0.299 * pixels[i]! + 0.587 * pixels[i + 1]! + 0.114 * pixels[i + 2]!;
      sums[out + Math.floor(col / factor)]! += luma;
    }
  }
  const data = new Uint8Array(w * h);
  for (let i = 0; i < data.length; i++) data[i] = Math.round(sums[i]! / (factor * factor));
  return { width: w, height: h, data };
}

function rgba({ width, height, data: grey }: Grey) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = grey[i]!;
    data[i * 4 + 3] = 255;
  }
  return { data, width, height };
}

/** One page of a PDF rendered grey by poppler at `dpi`, or undefined when it does not render. */
export async function renderPage(path: string, page: number, dpi: number, job: Job): Promise<Grey | undefined> {
  const out = join(job.workdir, `page-${Math.random().toString(36).slice(2)}`);
  const args = ['-q', '-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', path, out];
  await exec('pdftoppm', args, { timeoutMs: timeLeft(job.deadline), signal: job.signal });
  const pgm = await readFile(`${out}.pgm`).catch(() => undefined);
  await rm(`${out}.pgm`, { force: true });
  return pgm && parsePgm(pgm);
}

/**
 * Pages `first` to `last` rendered grey by one pdftoppm into a new folder in `dir` (as a viewer shows
 * them, crop box and turn, when `cropBox`): each page's PGM file by its number. A page that did not
 * render has none.
 */
export async function renderSpan(
  path: string,
  span: { first: number; last: number; dpi: number; cropBox?: boolean },
  job: Job,
  dir: string,
): Promise<Map<number, string>> {
  const out = join(dir, `pages-${Math.random().toString(36).slice(2)}`);
  await mkdir(out, { recursive: true });
  const args = ['-q', '-gray', '-r', String(span.dpi), '-f', String(span.first), '-l', String(span.last)];
  if (span.cropBox) args.push('-cropbox');
  await exec('pdftoppm', [...args, path, join(out, 'p')], { timeoutMs: timeLeft(job.deadline), signal: job.signal });
  // Named p-7.pgm, p-07.pgm or p-007.pgm, padded to the document's page count.
  return new Map((await readdir(out)).map((f) => [Number(/-(\d+)\.pgm$/.exec(f)?.[1]), join(out, f)]));
}

/** A binary PGM (P5, 8 bits): its size from the header, then the pixels. */
export function parsePgm(pgm: Buffer): Grey | undefined {
  const fields: number[] = [];
  let i = 2;
  while (fields.length < 3 && i < pgm.length) {
    while (i < pgm.length && /\s/.test(String.fromCharCode(pgm[i]!))) i++;
    if (pgm[i] === 0x23) {
      while (i < pgm.length && pgm[i] !== 0x0a) i++;
      continue;
    }
    let n = '';
    while (i < pgm.length && /\d/.test(String.fromCharCode(pgm[i]!))) n += String.fromCharCode(pgm[i++]!);
    fields.push(Number(n));
  }
  const [width = 0, height = 0] = fields;
  const data = pgm.subarray(i + 1, i + 1 + width * height);
  if (pgm.subarray(0, 2).toString() !== 'P5' || data.length !== width * height) return undefined;
  return { width, height, data };
}

/**
 * SSIM of two renderings of one page. Sizes that differ by a pixel of rounding are compared on their
 * common area; a page that did not render, or rendered at another size, scores 0.
 */
export function greySimilarity(x: Grey | undefined, y: Grey | undefined): number {
  if (!x || !y || Math.abs(x.width - y.width) > 1 || Math.abs(x.height - y.height) > 1) return 0;
  const width = Math.min(x.width, y.width);
  const height = Math.min(x.height, y.height);
  return similarity(crop(x, width, height), crop(y, width, height), width, height, 1);
}

function crop(image: Grey, width: number, height: number): Uint8Array {
  if (image.width === width && image.height === height) return image.data;
  const out = new Uint8Array(width * height);
  for (let row = 0; row < height; row++)
    out.set(image.data.subarray(row * image.width, row * image.width + width), row * width);
  return out;
}
