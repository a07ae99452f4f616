import { degrees, grayscale, StandardFonts, type PDFFont, type PDFImage, type PDFPage } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import type { ToolOptions } from '@quire/catalog';
import { fail, ToolError } from '@quire/base';
import type { ToolInput } from '@quire/http';
import type { ToolContext } from '@quire/service-kit';
import { loadPdf, savePdf } from '../../pdf-lib.ts';
import { pageView, toPageSpace } from '../../page-view.ts';
import { workPath } from '../../pdf.ts';

type Options = ToolOptions<'sign-pdf'>;

/** Large enough for a sharp signature at any print size, small enough to keep the PDF small. */
const maxImageSide = 2000;

/**
 * Draws the signature image, and the date under it when asked, on the pages the `page` option names,
 * at the place the options give as shares of each page as shown (upright however the page is turned).
 */
export async function stampSignature(
  ctx: ToolContext<Options>,
  source: string,
  image: ToolInput | undefined,
): Promise<{ path: string; pages: number[] }> {
  const doc = await loadPdf(source);
  const pages = doc.getPages();
  const numbers = pagesToSign(ctx.options.page, pages.length);
  const picture = image ? await doc.embedPng(await signaturePng(image)) : undefined;
  const font = ctx.options.date ? await doc.embedFont(StandardFonts.Helvetica) : undefined;
  const date = new Date().toISOString().slice(0, 10);
  try {
    for (const n of numbers) draw(pages[n - 1]!, ctx.options, picture, font && { font, text: date });
  } catch (err) {
    // A page qpdf kept but pdf-lib cannot draw on (contents neither a stream nor an array of them).
    throw new ToolError('damaged_input', undefined, { cause: err });
  }
  const out = workPath(ctx, 'stamped.pdf');
  await savePdf(doc, out);
  return { path: out, pages: numbers };
}

/** The pages the `page` option names in a document of `count` pages. */
function pagesToSign(page: string, count: number): number[] {
  if (page === 'all') return Array.from({ length: count }, (_, i) => i + 1);
  if (page === 'first') return [1];
  if (page === 'last') return [count];
  const n = Number(page);
  if (n > count)
    fail('invalid_option', `The option "page" is not valid: the PDF has ${count} pages.`, undefined, {
      option: 'page',
      pages: count,
    });
  return [n];
}

/**
 * The upload as an 8-bit PNG, its transparency kept, turned upright as its EXIF says and no larger
 * than needed; an image that does not decode is named as the file at fault.
 */
async function signaturePng(image: ToolInput): Promise<Buffer> {
  try {
    return await sharp(image.path)
      .rotate()
      .resize({ width: maxImageSide, height: maxImageSide, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch (err) {
    throw new ToolError('damaged_input', `The signature image "${image.name}" could not be read.`, {
      cause: err,
      details: { file: image.name },
    });
  }
}

function draw(
  page: PDFPage,
  options: Options,
  picture: PDFImage | undefined,
  date: { font: PDFFont; text: string } | undefined,
): void {
  const view = pageView(page);
  const rotate = degrees(view.rotation);
  // As shown: from the page's left edge and its bottom edge, in points.
  const width = options.size * view.width;
  const height = picture ? (width * picture.height) / picture.width : 0;
  const dateSize = Math.min(Math.max(width / 12, 6), 14);
  const below = date ? dateSize * 1.4 : 0;
  const left = Math.min(options.x * view.width, view.width - width);
  // The image's bottom edge, moved up when the image (and the date under it) would run off the page.
  const bottom = Math.max(view.height - options.y * view.height - height, below);
  if (picture) page.drawImage(picture, { ...toPageSpace(view, left, bottom), width, height, rotate });
  if (date)
    page.drawText(date.text, {
      ...toPageSpace(view, left, bottom - dateSize * 1.1),
      size: dateSize,
      font: date.font,
      color: grayscale(0.15),
      rotate,
    });
}
