import { rgb, degrees, StandardFonts, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import type { ToolOptions } from '@quire/catalog';
import { fail, ToolError } from '@quire/base';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { loadPdf, savePdf } from '../../pdf-lib.ts';
import { pageView, toPageSpace } from '../../page-view.ts';
import { openRepaired, pagesIn, workPath } from '../../pdf.ts';
import { pageLabel } from '@quire/catalog/page-labels';

type Options = ToolOptions<'add-page-numbers'>;

const pointsPerMm = 72 / 25.4;

/**
 * Writes a number on each chosen page in Helvetica (a standard font: nothing embedded, the digits
 * extractable), placed on the page as a viewer shows it, turned and cropped as it is. The chosen pages
 * are numbered in order from `start`; the total is the last number given.
 */
export async function addPageNumbers(ctx: ToolContext<Options>): Promise<ToolResult> {
  const { format, start, fontSize, direction } = ctx.options;
  const { path: source } = await openRepaired(ctx, ctx.inputs[0]!);
  const doc = await loadPdf(source);
  const pages = doc.getPages();
  const chosen =
    ctx.options.pages === undefined ? pages.map((_, i) => i + 1) : pagesIn(ctx.options.pages, pages.length, 'pages');
  const total = start + chosen.length - 1;
  if (format.startsWith('roman') && total > 3999) {
    fail(
      'invalid_option',
      `The option "start" is not valid: Roman numerals stop at 3999, and the last page would be ${total}.`,
    );
  }
  // Mirrored for right-to-left documents, whose pages are read from the right.
  const [vertical, side] = ctx.options.position.split('-') as ['top' | 'bottom', 'left' | 'center' | 'right'];
  const across = direction === 'rtl' && side !== 'center' ? (side === 'left' ? 'right' : 'left') : side;
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const margin = ctx.options.margin * pointsPerMm;
  try {
    chosen.forEach((p, i) =>
      stamp(pages[p - 1]!, font, pageLabel(format, start + i, total), { fontSize, margin, vertical, across }),
    );
  } catch (err) {
    // A page qpdf kept but pdf-lib cannot draw on (contents neither a stream nor an array of them).
    throw new ToolError('damaged_input', undefined, { cause: err });
  }
  const out = workPath(ctx, 'numbered.pdf');
  await savePdf(doc, out);
  return { path: out, properties: { pages: pages.length, numbered: chosen.length, first: start, last: total } };
}

interface Placement {
  fontSize: number;
  margin: number;
  vertical: 'top' | 'bottom';
  across: 'left' | 'center' | 'right';
}

function stamp(page: PDFPage, font: PDFFont, label: string, place: Placement): void {
  const view = pageView(page);
  // Never taller than a tenth of the page: a stamp-sized page gets a number of its size.
  const size = Math.min(place.fontSize, view.height / 10);
  const width = font.widthOfTextAtSize(label, size);
  const height = font.heightAtSize(size, { descender: false });
  const descent = font.heightAtSize(size) - height;
  // Where the label's baseline starts, as shown; kept inside the page when the margin would push it off.
  const u = { left: place.margin, center: (view.width - width) / 2, right: view.width - place.margin - width }[
    place.across
  ];
  const v = place.vertical === 'bottom' ? place.margin + descent : view.height - place.margin - height;
  const at = toPageSpace(view, clamp(u, 0, view.width - width), clamp(v, descent, view.height - height));
  page.drawText(label, { x: at.x, y: at.y, size, font, color: rgb(0, 0, 0), rotate: degrees(view.rotation) });
}

function clamp(n: number, min: number, max: number): number {
  return Math.max(min, Math.min(n, Math.max(min, max)));
}
