import { pageCount, qpdf, type ToolRun } from '@quire/service-kit';
import { openInput, pagesIn, qpdfRange, workPath } from '../pdf.ts';

/** Turns pages clockwise from where they are now, so an inherited /Rotate is honoured. */
export const rotate: ToolRun = async (ctx) => {
  const source = await openInput(ctx, ctx.inputs[0]!);
  const angle = ctx.options.angle as number;
  const spec = ctx.options.pages as string | undefined;
  const out = workPath(ctx, 'rotated.pdf');
  const turn = (range: string) => qpdf([source, out, `--rotate=+${angle}${range}`], ctx);
  if (spec === undefined) {
    // Every page: count them while qpdf turns them, adding no step to the job.
    const [pages] = await Promise.all([pageCount(source, ctx), turn('')]);
    return { path: out, properties: { pages, rotated: pages, angle } };
  }
  const pages = await pageCount(source, ctx);
  const chosen = pagesIn(spec, pages, 'pages');
  await turn(`:${qpdfRange(chosen)}`);
  return { path: out, properties: { pages, rotated: chosen.length, angle } };
};
