import { writeFile } from 'node:fs/promises';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { PlannedPage, ToolOptions } from '@quire/catalog';
import { pagesOfPlan } from '@quire/catalog';
import { fail } from '@quire/base';
import { pageCount, qpdf } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { loadPdf } from '../../pdf-lib.ts';
import { openInput, qpdfRange, workPath } from '../../pdf.ts';

/**
 * Builds the document the `plan` option describes in one qpdf pass: the input's pages in the plan's
 * order (repeats allowed, the rest dropped), blank pages from a small PDF made for them, then turns.
 */
export async function run(ctx: ToolContext<ToolOptions<'organize-pdf'>>): Promise<ToolResult> {
  const source = await openInput(ctx, ctx.inputs[0]!);
  const planned = plannedPages(ctx.options.plan, await pageCount(source, ctx));
  const blanks = workPath(ctx, 'blanks.pdf');
  const blankCount = planned.filter((p) => 'blank' in p).length;
  if (blankCount > 0) await writeBlanks(ctx, source, planned, blanks);

  // Consecutive pages from one file make one group of --pages: ". 3,1,2 blanks.pdf 1 . 5,2".
  const groups: { file: string; pages: number[] }[] = [];
  let blank = 0;
  for (const p of planned) {
    const [file, page] = 'blank' in p ? [blanks, ++blank] : ['.', p.page];
    const last = groups.at(-1);
    if (last?.file === file) last.pages.push(page);
    else groups.push({ file, pages: [page] });
  }
  const turns = [90, 180, 270].flatMap((angle) => {
    const at = planned.flatMap((p, i) => ('turn' in p && p.turn === angle ? [i + 1] : []));
    return at.length ? [`--rotate=+${angle}:${qpdfRange(at)}`] : [];
  });
  const out = workPath(ctx, 'organized.pdf');
  const pages = groups.flatMap((g) => [g.file, g.pages.join(',')]);
  await qpdf([source, '--pages', ...pages, '--', ...turns, out], ctx);
  return {
    path: out,
    properties: {
      pages: planned.length,
      blank: blankCount,
      turned: planned.filter((p) => 'turn' in p && p.turn).length,
    },
  };
}

const isPage = (p: PlannedPage): p is Exclude<PlannedPage, { blank: true }> => !('blank' in p);

function plannedPages(plan: string, count: number): PlannedPage[] {
  try {
    return pagesOfPlan(plan, count);
  } catch (err) {
    if (err instanceof RangeError) fail('invalid_option', `The option "plan" is not valid: ${err.message}.`);
    throw err;
  }
}

/**
 * One empty page per `blank` of the plan, each the size its previous page (else its next) shows,
 * turns included, so that a blank between landscape pages is landscape too. Only those neighbours
 * are read, copied out by qpdf (with what they inherit), not the whole document.
 */
async function writeBlanks(ctx: ToolContext, source: string, planned: PlannedPage[], out: string): Promise<void> {
  // The plan names at least one page, so every blank has a neighbour.
  const neighbours = planned.map((p, i) =>
    'blank' in p ? [...planned.slice(0, i).reverse(), ...planned.slice(i + 1)].find(isPage)! : undefined,
  );
  const read = [...new Set(neighbours.flatMap((n) => (n ? [n.page] : [])))];
  const copied = workPath(ctx, 'neighbours.pdf');
  await qpdf(['--empty', '--pages', source, read.join(','), '--', copied], ctx);
  const pages = (await loadPdf(copied)).getPages();
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const near of neighbours) {
    if (!near) continue;
    const page = pages[read.indexOf(near.page)]!;
    const { width, height } = page.getCropBox();
    const sideways = (page.getRotation().angle + near.turn) % 180 !== 0;
    doc.addPage(sideways ? [height, width] : [width, height]);
  }
  await writeFile(out, await doc.save());
}
