import type { PDFDocument } from '@cantoo/pdf-lib';
import { mapLimit, timeLeft, ToolError } from '@quire/base';
import type { ToolOptions } from '@quire/catalog';
import { pageCount, qpdf } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openInput, workPath } from '../../pdf.ts';
import { loadPdf, savePdf } from '../../pdf-lib.ts';
import { diffWords, type Mark } from './diff.ts';
import { drawReport, pagesChanged, wordHighlights, type Side } from './report.ts';
import { pixelChanges } from './visual.ts';
import { placedWords, type PageSize } from './words.ts';

/** Pages of each document a comparison reads: the report holds both, side by side. */
export const maxComparePages = 300;
/** The longest the alignment of two documents' words may take. */
const maxDiffMs = 60_000;
/** Past this many, the changed pages are counted in the properties, not listed. */
const listedPages = 50;

/**
 * Two PDFs compared by their words aligned as a whole, or by how their pages look (`compareBy`), and a
 * report PDF showing both versions page by page with what differs highlighted; the summary is the
 * result's properties.
 */
export async function compare(ctx: ToolContext<ToolOptions<'compare-pdf'>>): Promise<ToolResult> {
  const opened = await mapLimit(ctx.inputs, 2, (input, i) => openInput(ctx, input, i));
  const longest = Math.max(...(await mapLimit(opened, 2, (path) => pageCount(path, ctx))));
  if (longest > maxComparePages)
    throw new ToolError(
      'file_too_large',
      `A document has ${longest} pages; a comparison reads at most ${maxComparePages}. Split it first.`,
    );
  // Each page's rotation is drawn into its content, so that the words' boxes and the pages drawn agree.
  const flat = await mapLimit(opened, 2, async (path, i) => {
    const out = workPath(ctx, `flat-${i}.pdf`);
    await qpdf([path, '--pages', '.', '--', '--flatten-rotation', out], ctx);
    return out;
  });
  const [docA, docB] = (await Promise.all(flat.map(loadPdf))) as [PDFDocument, PDFDocument];
  const names: [string, string] = [ctx.inputs[0]!.name, ctx.inputs[1]!.name];
  const { first, second, summary, properties } =
    ctx.options.compareBy === 'looks'
      ? await byPixels(ctx, flat as [string, string], [docA, docB])
      : await byWords(ctx, flat as [string, string], [docA, docB]);
  const report = await drawReport(first, second, names, summary);
  const out = workPath(ctx, 'comparison.pdf');
  // The pages' content is decoded as the report is written: one that does not decode is the input's fault.
  await savePdf(report, out).catch((err: unknown) => {
    throw new ToolError('damaged_input', undefined, { cause: err });
  });
  const changed = pagesChanged(first, second);
  return {
    path: out,
    name: 'comparison.pdf',
    properties: {
      pages: report.getPageCount(),
      firstPages: first.pages.length,
      secondPages: second.pages.length,
      ...properties,
      identical: changed.length === 0,
      pagesChanged: changed.length,
      ...(changed.length <= listedPages && { changedPages: changed }),
    },
  };
}

interface Compared {
  first: Side;
  second: Side;
  summary: (page: number) => string;
  properties: Record<string, unknown>;
}

/** The words of both aligned as a whole: what was removed, added and changed. */
async function byWords(
  ctx: ToolContext<ToolOptions<'compare-pdf'>>,
  paths: [string, string],
  docs: [PDFDocument, PDFDocument],
): Promise<Compared> {
  const [a, b] = (await mapLimit(paths, 2, (path) => placedWords(path, ctx))) as [Placed, Placed];
  const diff = await diffWords(a.words, b.words, Math.min(maxDiffMs, timeLeft(ctx.deadline) / 2));
  const side = (doc: PDFDocument, read: Placed, marks: Map<number, Mark>): Side => ({
    doc,
    pages: read.pages,
    highlights: wordHighlights(read.words, marks, read.pages.length),
  });
  const [first, second] = [side(docs[0], a, diff.first), side(docs[1], b, diff.second)];
  const count = (s: Side, p: number) => s.highlights[p]?.length ?? 0;
  return {
    first,
    second,
    summary: (p) => {
      const [removed, added] = [count(first, p), count(second, p)];
      return removed || added ? `${removed} words removed or changed, ${added} added or changed` : 'no change';
    },
    properties: {
      changes: diff.changes,
      wordsRemoved: diff.removed,
      wordsAdded: diff.added,
      ...(a.words.length === 0 &&
        b.words.length === 0 && {
          note: 'Neither document has text to compare: they may be scans. Compare them by their look instead.',
        }),
    },
  };
}

/** How the pages look: the areas whose pixels differ, for scans and drawings. */
async function byPixels(
  ctx: ToolContext<ToolOptions<'compare-pdf'>>,
  paths: [string, string],
  docs: [PDFDocument, PDFDocument],
): Promise<Compared> {
  const size = (doc: PDFDocument): PageSize[] => doc.getPages().map((page) => page.getCropBox());
  const sizes: [PageSize[], PageSize[]] = [size(docs[0]), size(docs[1])];
  const found = await pixelChanges(ctx, paths, sizes);
  const first: Side = { doc: docs[0], pages: sizes[0], highlights: found.first };
  const second: Side = { doc: docs[1], pages: sizes[1], highlights: found.second };
  return {
    first,
    second,
    summary: (p) => {
      const areas = Math.max(first.highlights[p]?.length ?? 0, second.highlights[p]?.length ?? 0);
      return areas ? `${areas} ${areas === 1 ? 'area looks' : 'areas look'} different` : 'no change';
    },
    properties: { areasChanged: found.areas },
  };
}

type Placed = Awaited<ReturnType<typeof placedWords>>;
