import type { ToolOptions } from '@quire/catalog';
import { fail } from '@quire/base';
import { pageCount, qpdf } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openInput, pagesIn, qpdfRange, workPath } from '../../pdf.ts';

/** Drops the pages named; at least one page must stay. */
export async function run(ctx: ToolContext<ToolOptions<'pdf-page-remove'>>): Promise<ToolResult> {
  const source = await openInput(ctx, ctx.inputs[0]!);
  const count = await pageCount(source, ctx);
  const removed = new Set(pagesIn(ctx.options.pages, count, 'pages'));
  const kept = Array.from({ length: count }, (_, i) => i + 1).filter((p) => !removed.has(p));
  if (kept.length === 0) {
    fail('invalid_option', `The option "pages" names every page of the document; at least one page must stay.`);
  }
  const out = workPath(ctx, 'removed.pdf');
  await qpdf([source, '--pages', '.', qpdfRange(kept), '--', out], ctx);
  return {
    path: out,
    properties: { pages: kept.length, removed: removed.size },
  };
}
