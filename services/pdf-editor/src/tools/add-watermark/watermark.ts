import { StandardFonts } from '@cantoo/pdf-lib';
import type { ToolOptions } from '@quire/catalog';
import { fail, ToolError } from '@quire/base';
import { drawableCharacters, drawTextMark } from '@quire/pdf/overlay';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { loadPdf, savePdf } from '../../pdf-lib.ts';
import { openRepaired, workPath } from '../../pdf.ts';

/**
 * Stamps the text across every page in Helvetica (a standard font, so nothing is embedded and the
 * text stays extractable), sized to the visible part of each page and upright as the page is shown.
 */
export async function watermark(ctx: ToolContext<ToolOptions<'add-watermark'>>): Promise<ToolResult> {
  const text = ctx.options.text.replace(/\s+/g, ' ');
  const { opacity } = ctx.options;
  const diagonal = ctx.options.position === 'diagonal';
  const canDraw = await drawableCharacters();
  const bad = [...text].find((ch) => !canDraw.has(ch.codePointAt(0)!));
  if (bad !== undefined) {
    fail(
      'invalid_option',
      `The option "text" has a character that cannot be drawn ("${bad}"); please use Latin letters, digits and common punctuation.`,
    );
  }
  const { path: source } = await openRepaired(ctx, ctx.inputs[0]!);
  const doc = await loadPdf(source);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  try {
    for (const page of pages) drawTextMark(page, { text, font, opacity, diagonal });
  } catch (err) {
    // A page qpdf kept but pdf-lib cannot draw on (contents neither a stream nor an array of them).
    throw new ToolError('damaged_input', undefined, { cause: err });
  }
  const out = workPath(ctx, 'watermarked.pdf');
  await savePdf(doc, out);
  return { path: out, properties: { pages: pages.length } };
}
