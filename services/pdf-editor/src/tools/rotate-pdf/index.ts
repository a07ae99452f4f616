import type { ToolOptions } from '@quire/catalog';
import { pageTree, qpdf } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { mendPageCounts } from '../../page-tree.ts';
import { openInput, pagesIn, qpdfRange, workPath } from '../../pdf.ts';

/**
 * Turns pages clockwise from where they are now, so an inherited /Rotate is honoured. A file whose page
 * tree claims more pages than it holds comes back claiming what it holds.
 */
export async function run(ctx: ToolContext<ToolOptions<'rotate-pdf'>>): Promise<ToolResult> {
  const source = await openInput(ctx, ctx.inputs[0]!);
  const { angle, pages: spec } = ctx.options;
  const turned = workPath(ctx, 'rotated.pdf');
  const turn = (range: string) => qpdf([source, turned, `--rotate=+${angle}${range}`], ctx);
  // Every page: count them while qpdf turns them, adding no step to the job; chosen pages need the count first.
  let chosen: number[] | undefined;
  const counting = pageTree(source, ctx);
  if (spec === undefined) await Promise.all([counting, turn('')]);
  else await turn(`:${qpdfRange((chosen = pagesIn(spec, (await counting).pages, 'pages')))}`);
  const { claimed, pages } = await counting;
  const out = claimed === pages ? turned : workPath(ctx, 'mended.pdf');
  if (out !== turned) await mendPageCounts(turned, out, ctx);
  return { path: out, properties: { pages, rotated: chosen?.length ?? pages, angle } };
}
