import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { exec, parallelism, stem, timeLeft, ToolError } from '@quire/base';
import { createZip, drawnImages, openPdf, pageCount, type DrawnImage } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import type { ToolOptions } from '@quire/catalog';
import { limits } from '../../config.ts';
import { inOrder } from '../../util.ts';

interface PageBox {
  /** Crop box size in points: what a reader shows, and what pdftoppm -cropbox renders. */
  width: number;
  height: number;
}

/**
 * PDF to Images: a ZIP with one PNG or JPEG per page (`report-page-001.png`...), rendered by
 * poppler's pdftoppm at the dpi asked for, a few runs of pages side by side. Refused up front when
 * the pages would make more pixels than the service allows.
 */
export async function run(ctx: ToolContext<ToolOptions<'pdf-to-images'>>): Promise<ToolResult> {
  const input = ctx.inputs[0]!;
  const { format, dpi } = ctx.options;
  const source = await openPdf(input.path, ctx.password, ctx, join(ctx.workdir, 'opened.pdf'));
  // qpdf's count, the one the kit checks the result against (poppler reads a few files qpdf gives
  // up on, but a result whose pages cannot be checked is not offered).
  const count = await pageCount(source, ctx);
  const [boxes] = await Promise.all([pageBoxes(ctx, source, count), checkImages(ctx, source)]);
  const megapixels = checkPixels(boxes, dpi);

  const base = stem(input.name);
  const digits = Math.max(3, String(count).length);
  const zipPath = join(ctx.workdir, 'images.zip');
  const zip = createZip(zipPath);
  try {
    // Runs of pages, a few pdftoppm processes at once (each uses one core); a run's images go into
    // the ZIP, in page order, as soon as it and every run before it are done.
    await inOrder(
      runsOf(boxes, dpi),
      parallelism(),
      (run, i) => render(ctx, source, run, format, dpi, i),
      async (files, run) => {
        files.forEach((file, k) =>
          zip.add(file, `${base}-page-${String(run.first + k).padStart(digits, '0')}.${format}`),
        );
      },
      async () => undefined,
    );
    await zip.close();
  } catch (err) {
    await zip.abort();
    throw err;
  }
  return {
    path: zipPath,
    name: `${base}-images.zip`,
    properties: { pages: count, images: count, format, dpi, megapixels },
  };
}

interface Run {
  first: number;
  last: number;
}

/**
 * Consecutive pages in runs: enough runs to keep every core busy, and few enough pixels in each that
 * the uncompressed pages a run leaves on disk before they become PNGs stay small (50 MP, 150 MB).
 */
function runsOf(boxes: PageBox[], dpi: number): Run[] {
  const pagesPerRun = Math.max(1, Math.ceil(boxes.length / (parallelism() * 2)));
  const runs: Run[] = [];
  let pixels = 0;
  boxes.forEach((box, i) => {
    const p = pagePixels(box, dpi);
    const run = runs.at(-1);
    if (run && run.last - run.first + 1 < pagesPerRun && pixels + p <= 50e6) {
      run.last = i + 1;
      pixels += p;
    } else {
      runs.push({ first: i + 1, last: i + 1 });
      pixels = p;
    }
  });
  return runs;
}

/** Each page's crop box, from pdfinfo. */
async function pageBoxes(ctx: ToolContext, path: string, count: number): Promise<PageBox[]> {
  const { code, stdout, stderr } = await exec('pdfinfo', ['-box', '-f', '1', '-l', String(count), path], {
    timeoutMs: timeLeft(ctx.deadline),
    signal: ctx.signal,
    maxOutput: 64 * 1024 * 1024,
  });
  if (code !== 0)
    throw new ToolError('damaged_input', undefined, {
      cause: new Error(`pdfinfo exit ${code}: ${stderr.slice(0, 2000)}`),
    });
  const boxes: PageBox[] = [];
  for (const m of stdout.matchAll(/^Page\s+(\d+) CropBox:\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)/gm)) {
    boxes[Number(m[1]) - 1] = {
      width: Math.abs(Number(m[4]) - Number(m[2])),
      height: Math.abs(Number(m[5]) - Number(m[3])),
    };
  }
  if (boxes.length === 0) {
    throw new ToolError('damaged_input', undefined, {
      cause: new Error(`pdfinfo gave no page boxes: ${stderr.slice(0, 2000)}`),
    });
  }
  // A page poppler cannot place (a broken page tree, say) is counted as the largest page there is;
  // pdftoppm then renders what it can of it, as a reader would.
  const largest = boxes.reduce((a, b) => (b && b.width * b.height > a.width * a.height ? b : a), {
    width: 0,
    height: 0,
  });
  return Array.from({ length: count }, (_, i) => boxes[i] ?? largest);
}

/** Pixels pdftoppm makes for a page: it rounds each side up. */
function pagePixels(box: PageBox, dpi: number): number {
  return Math.ceil((box.width * dpi) / 72) * Math.ceil((box.height * dpi) / 72);
}

/**
 * Refuses a job that would make too many pixels: in all (time, disk and the size of the ZIP), or on
 * one page (pdftoppm holds a page whole, 3 bytes a pixel). When a lower dpi would do, the error is an
 * invalid option that says which dpi fits; when not even 72 dpi fits, the file is too large to handle.
 */
function checkPixels(boxes: PageBox[], dpi: number): number {
  const total = boxes.reduce((n, b) => n + pagePixels(b, dpi), 0);
  const largest = boxes.reduce((n, b) => Math.max(n, pagePixels(b, dpi)), 0);
  const totalLimit = limits.renderMegapixels * 1e6;
  const pageLimit = limits.renderPageMegapixels * 1e6;
  if (total <= totalLimit && largest <= pageLimit) return Math.round(total / 1e6);
  // Pixels grow with the square of the dpi.
  const fits = Math.floor(dpi * Math.sqrt(Math.min(totalLimit / total, pageLimit / largest)));
  const mp = (n: number) => Math.ceil(n / 1e6).toLocaleString('en-US');
  const what =
    largest > pageLimit
      ? `its largest page would make an image of ${mp(largest)} megapixels at ${dpi} dpi; the limit is ${limits.renderPageMegapixels} megapixels a page`
      : `its ${boxes.length} pages would make ${mp(total)} megapixels of images at ${dpi} dpi; the limit is ${limits.renderMegapixels.toLocaleString('en-US')} megapixels`;
  if (fits >= 72)
    throw new ToolError(
      'invalid_option',
      `The option "dpi" is too high for this PDF: ${what}. Please choose ${fits} dpi or less.`,
    );
  throw new ToolError(
    'damaged_input',
    `This PDF is too large to turn into images: ${what}, and even at 72 dpi it is over.`,
  );
}

/** Refuses a PDF that draws an image too large to decode, before pdftoppm spends minutes on it. */
async function checkImages(ctx: ToolContext, path: string): Promise<void> {
  const limit = limits.renderImageMegapixels;
  const largest = (await drawnImages(path, ctx)).reduce<DrawnImage | undefined>(
    (big, i) => (!big || i.width * i.height > big.width * big.height ? i : big),
    undefined,
  );
  if (largest && largest.width * largest.height > limit * 1e6) {
    throw new ToolError(
      'damaged_input',
      `This PDF is too large to turn into images: page ${largest.page} draws an image of ${largest.width}×${largest.height} pixels; the limit is ${limit} megapixels.`,
    );
  }
}

/**
 * Renders a run of pages into a directory of its own; the files in page order. JPEGs come straight
 * from pdftoppm. For PNG, pdftoppm's own encoder is slow (it was 2.3 times the CPU time for the same
 * size here), so it writes uncompressed pages that sharp then compresses, one at a time.
 */
async function render(
  ctx: ToolContext,
  source: string,
  run: Run,
  format: 'png' | 'jpg',
  dpi: number,
  index: number,
): Promise<string[]> {
  const dir = join(ctx.workdir, `pages-${index}`);
  await mkdir(dir);
  const formatArgs = format === 'jpg' ? ['-jpeg', '-jpegopt', 'quality=90,optimize=y'] : [];
  const { code, stderr } = await exec(
    'pdftoppm',
    [
      '-r',
      String(dpi),
      '-cropbox',
      '-f',
      String(run.first),
      '-l',
      String(run.last),
      ...formatArgs,
      source,
      join(dir, 'p'),
    ],
    { timeoutMs: timeLeft(ctx.deadline), signal: ctx.signal },
  );
  if (code !== 0)
    throw new ToolError('damaged_input', undefined, {
      cause: new Error(`pdftoppm exit ${code}: ${stderr.slice(0, 2000)}`),
    });
  // pdftoppm pads page numbers to the width of the document's page count: p-01.ppm...; order by number.
  const files = (await readdir(dir))
    .map((file) => ({ file, n: Number(/-(\d+)\.(ppm|jpg)$/.exec(file)?.[1]) }))
    .filter((f) => Number.isInteger(f.n))
    .sort((a, b) => a.n - b.n)
    .map((f) => join(dir, f.file));
  if (files.length !== run.last - run.first + 1) {
    throw new ToolError('damaged_input', undefined, {
      cause: new Error(`pdftoppm made ${files.length} of ${run.last - run.first + 1} pages`),
    });
  }
  if (format === 'jpg') return files;
  const pngs: string[] = [];
  for (const ppm of files) {
    ctx.signal.throwIfAborted();
    const png = ppm.replace(/\.ppm$/, '.png');
    await ppmToPng(ppm, png);
    await rm(ppm);
    pngs.push(png);
  }
  return pngs;
}

/** A binary PPM (P6, 8 bits) as a PNG. libvips can read PPM, but sharp's build leaves that loader out. */
async function ppmToPng(ppm: string, png: string): Promise<void> {
  const buf = await readFile(ppm);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(buf.toString('latin1', 0, 64));
  if (!header) throw new Error(`${ppm} is not an 8-bit binary PPM`);
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = buf.subarray(header[0].length);
  if (pixels.length < width * height * 3) throw new Error(`${ppm} is cut short`);
  await sharp(pixels, { raw: { width, height, channels: 3 }, limitInputPixels: false })
    .png({ compressionLevel: 6, adaptiveFiltering: true })
    .toFile(png);
}
