import type { PDFPage } from '@cantoo/pdf-lib';
import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { loadPdf, savePdf } from '../../pdf-lib.ts';
import { marginsInPageSpace, pageView } from '../../page-view.ts';
import { openRepaired, pagesIn, workPath } from '../../pdf.ts';
import { contentMargins } from './content-margins.ts';
import { askedMargins, type Margins } from './margins.ts';

/**
 * Sets the crop box of each chosen page: the part shown now less the margins asked for (as the page
 * is seen, turned), around a box, or around what is drawn (`trim`). Nothing is removed from the
 * pages' content: a viewer, a printer and the other tools show only the box.
 */
export async function crop(ctx: ToolContext<ToolOptions<'crop-pdf'>>): Promise<ToolResult> {
  const { path: source } = await openRepaired(ctx, ctx.inputs[0]!);
  const doc = await loadPdf(source);
  const pages = doc.getPages();
  const chosen =
    ctx.options.pages === undefined ? pages.map((_, i) => i + 1) : pagesIn(ctx.options.pages, pages.length, 'pages');
  const views = new Map(chosen.map((p) => [p, pageView(pages[p - 1]!)]));
  const margins =
    ctx.options.mode === 'trim'
      ? await contentMargins(ctx, source, chosen, (p) => views.get(p)!)
      : new Map(chosen.map((p) => [p, askedMargins(ctx.options, p, views.get(p)!.width, views.get(p)!.height)]));
  let cropped = 0;
  for (const p of chosen) {
    const m = margins.get(p);
    if (m && setCrop(pages[p - 1]!, m)) cropped++;
  }
  const out = workPath(ctx, 'cropped.pdf');
  await savePdf(doc, out);
  return { path: out, properties: { pages: pages.length, cropped, mode: ctx.options.mode } };
}

/** Crops the page by margins as shown; false when there is nothing to take off. */
function setCrop(page: PDFPage, shown: Margins): boolean {
  const view = pageView(page);
  const { top, right, bottom, left } = marginsInPageSpace(view, shown);
  if (top + right + bottom + left === 0) return false;
  const { x, y, width, height } = view.box;
  page.setCropBox(x + left, y + bottom, width - left - right, height - top - bottom);
  return true;
}
