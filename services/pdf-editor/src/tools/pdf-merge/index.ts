import type { ToolOptions } from '@quire/catalog';
import { mapLimit, parallelism } from '@quire/base';
import { pageCount, qpdf } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openInput, workPath } from '../../pdf.ts';

/** Joins the inputs in the order sent; one password opens every input that needs one. */
export async function run(ctx: ToolContext<ToolOptions<'pdf-merge'>>): Promise<ToolResult> {
  const sources = await mapLimit(ctx.inputs, parallelism(), (input, i) => openInput(ctx, input, i));
  const out = workPath(ctx, 'merged.pdf');
  // The inputs are counted while qpdf merges them, rather than the result afterwards: no step added.
  const [counts] = await Promise.all([
    mapLimit(sources, parallelism(), (source) => pageCount(source, ctx)),
    qpdf(['--empty', '--pages', ...sources, '--', out], ctx),
  ]);
  const pages = counts.reduce((a, b) => a + b, 0);
  return { path: out, name: 'merged.pdf', properties: { pages, files: sources.length } };
}
