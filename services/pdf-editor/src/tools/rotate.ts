import { pageTree, qpdf, type ToolRun } from '@quire/service-kit';
import { mendPageCounts } from '../page-tree.ts';
import { openInput, pagesIn, qpdfRange, workPath } from '../pdf.ts';

/**
 * Turns pages clockwise from where they are now, so an inherited /Rotate is honoured. A file whose page
 * tree claims more pages than it holds comes back claiming what it holds.
 */
export const rotate: ToolRun = async (ctx) => {
  const source = await openInput(ctx, ctx.inputs[0]!);
  const angle = ctx.options.angle as number;
  const spec = ctx.options.pages as string | undefined;
  const turned = workPath(ctx, 'rotated.pdf');
  const turn = (range: string) => qpdf([source, turned, `--rotate=+${angle}${range}`], ctx);
  // Every page: count them while qpdf turns them, adding no step to the job.
  const [{ claimed, pages }, chosen] =
    spec === undefined
      ? await Promise.all([pageTree(source, ctx), turn('')]).then(([tree]) => [tree, undefined] as const)
      : await pageTree(source, ctx).then(async (tree) => {
          const chosen = pagesIn(spec, tree.pages, 'pages');
          await turn(`:${qpdfRange(chosen)}`);
          return [tree, chosen] as const;
        });
  const out = claimed === pages ? turned : workPath(ctx, 'mended.pdf');
  if (out !== turned) await mendPageCounts(turned, out, ctx);
  return { path: out, properties: { pages, rotated: chosen?.length ?? pages, angle } };
};
