import { mkdir, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { exec, stem, timeLeft, ToolError } from '@quire/base';
import type { ToolOptions } from '@quire/catalog';
import { createZip, listedImages, openPdf, type ListedImage } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { limits } from '../../config.ts';

/**
 * Extract Images: every image the PDF's pages draw, as poppler's `pdfimages` lists them, in a zip.
 * JPEGs are copied out as they are stored (`-j`); every other kind (JBIG2, CCITT, JPEG 2000, Flate,
 * masks) is decoded and written as a PNG (`-png`), a stencil mask black where it paints. Entries are named by page and by their order on it,
 * `page-003-image-02.jpg`; a mask follows the image it belongs to, `page-003-image-02-smask.png`.
 * Refused up front when there is nothing to extract, or more images or pixels than the service allows.
 */
export async function run(ctx: ToolContext<ToolOptions<'extract-images'>>): Promise<ToolResult> {
  const input = ctx.inputs[0]!;
  const source = await openPdf(input.path, ctx.password, ctx, join(ctx.workdir, 'opened.pdf'));
  const listed = await listedImages(source, ctx);
  checkBounds(listed);

  const dir = join(ctx.workdir, 'images');
  await mkdir(dir);
  const { code, stderr } = await exec('pdfimages', ['-j', '-png', '-p', source, join(dir, 'x')], {
    timeoutMs: timeLeft(ctx.deadline),
    signal: ctx.signal,
  });
  // pdfimages names each file x-<page>-<num>.<ext>, num being its row in the listing.
  const files = (await readdir(dir))
    .map((file) => /^x-(\d+)-(\d+)\.(jpg|png)$/.exec(file))
    .filter((m) => m !== null)
    .map((m) => ({ file: join(dir, m[0]), page: Number(m[1]), num: Number(m[2]), ext: m[3]! }))
    .sort((a, b) => a.num - b.num);
  if (code !== 0 || files.length !== listed.length) {
    throw new ToolError('damaged_input', undefined, {
      cause: new Error(`pdfimages exit ${code}, ${files.length} of ${listed.length} images: ${stderr.slice(0, 2000)}`),
    });
  }

  const types = new Map(listed.map((image) => [image.num, image.type]));
  const typed = files.map((f) => ({ ...f, type: types.get(f.num) ?? 'image' }));
  for (const f of typed) if (f.type === 'stencil') await asPainted(f.file, ctx);
  const names = entryNames(typed);
  const zipPath = join(ctx.workdir, 'images.zip');
  const zip = createZip(zipPath);
  try {
    files.forEach((f, i) => zip.add(f.file, names[i]!));
    await zip.close();
  } catch (err) {
    await zip.abort();
    throw err;
  }
  const jpeg = files.filter((f) => f.ext === 'jpg').length;
  return {
    path: zipPath,
    name: `${stem(input.name)}-images.zip`,
    properties: { images: files.length, jpeg, png: files.length - jpeg },
  };
}

/**
 * A stencil mask (a shape painted in one colour, as a scan's JBIG2 or a logo is) as a reader shows it,
 * painted black on white: pdfimages writes its samples the other way round.
 */
async function asPainted(file: string, ctx: ToolContext): Promise<void> {
  ctx.signal.throwIfAborted();
  const painted = `${file}.painted.png`;
  await sharp(file, { limitInputPixels: false }).negate().toColourspace('b-w').png().toFile(painted);
  await rename(painted, file);
}

/** Masks name the image they belong to: pdfimages lists one right after its image. */
const maskTypes = new Set(['mask', 'smask']);

/** Each file's entry name: its page, its image's order on that page, and a mask's kind. */
function entryNames(files: { page: number; type: string; ext: string }[]): string[] {
  let page = 0;
  let n = 0;
  const numbered = files.map((f) => {
    if (f.page !== page) [page, n] = [f.page, 0];
    const mask = maskTypes.has(f.type) && n > 0;
    if (!mask) n++;
    return { ...f, n: n || 1, suffix: mask ? `-${f.type}` : '' };
  });
  const digits = (values: number[], least: number) => Math.max(least, String(Math.max(...values)).length);
  const [pageDigits, imageDigits] = [
    digits(
      files.map((f) => f.page),
      3,
    ),
    digits(
      numbered.map((f) => f.n),
      2,
    ),
  ];
  return numbered.map(
    (f) =>
      `page-${String(f.page).padStart(pageDigits, '0')}-image-${String(f.n).padStart(imageDigits, '0')}${f.suffix}.${f.ext}`,
  );
}

/**
 * Refuses a PDF with no image (an empty zip helps no one), and one whose images would make a zip past
 * the service's bounds: more entries than `EXTRACT_MAX_IMAGES`, an image past `RENDER_MAX_IMAGE_MEGAPIXELS`
 * (pdfimages decodes it whole) or more pixels in all than `RENDER_MAX_MEGAPIXELS`.
 */
function checkBounds(listed: ListedImage[]): void {
  if (listed.length === 0) {
    throw new ToolError('unsupported_type', 'This PDF has no embedded images to extract.');
  }
  if (listed.length > limits.extractImages) {
    throw new ToolError(
      'file_too_large',
      `This PDF has ${listed.length.toLocaleString('en-US')} images; the limit is ${limits.extractImages.toLocaleString('en-US')} images a file.`,
    );
  }
  const megapixels = (i: ListedImage) => (i.width * i.height) / 1e6;
  const largest = listed.reduce((big, i) => (megapixels(i) > megapixels(big) ? i : big));
  if (megapixels(largest) > limits.renderImageMegapixels) {
    throw new ToolError(
      'file_too_large',
      `Page ${largest.page} of this PDF has an image of ${largest.width}×${largest.height} pixels; the limit is ${limits.renderImageMegapixels} megapixels an image.`,
    );
  }
  const total = listed.reduce((n, i) => n + megapixels(i), 0);
  if (total > limits.renderMegapixels) {
    throw new ToolError(
      'file_too_large',
      `The images of this PDF hold ${Math.ceil(total).toLocaleString('en-US')} megapixels; the limit is ${limits.renderMegapixels.toLocaleString('en-US')} megapixels a file.`,
    );
  }
}
