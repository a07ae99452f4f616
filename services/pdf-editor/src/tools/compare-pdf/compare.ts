import { mapLimit, timeLeft, ToolError } from '@quire/base';
import type { ToolOptions } from '@quire/catalog';
import { pageCount, qpdf } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openInput, workPath } from '../../pdf.ts';
import { loadPdf, savePdf } from '../../pdf-lib.ts';
import { diffWords } from './diff.ts';
import { drawReport, pagesChanged, type Side } from './report.ts';
import { placedWords } from './words.ts';

/** Pages of each document a comparison reads: the report holds both, side by side. */
export const maxComparePages = 300;
/** The longest the alignment of two documents' words may take. */
const maxDiffMs = 60_000;
/** Past this many, the changed pages are counted in the properties, not listed. */
const listedPages = 50;

/**
 * Two PDFs' words aligned as a whole, and a report PDF showing both versions page by page with what
 * was removed, added and changed highlighted; the summary is the result's properties.
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
  const read = await mapLimit(flat, 2, (path) => placedWords(path, ctx));
  const [a, b] = read as [(typeof read)[0], (typeof read)[0]];
  const diff = await diffWords(a.words, b.words, Math.min(maxDiffMs, timeLeft(ctx.deadline) / 2));
  const [docA, docB] = await Promise.all(flat.map(loadPdf));
  const first: Side = { doc: docA!, pages: a.pages, words: a.words, marks: diff.first };
  const second: Side = { doc: docB!, pages: b.pages, words: b.words, marks: diff.second };
  const report = await drawReport(first, second, [ctx.inputs[0]!.name, ctx.inputs[1]!.name]);
  const out = workPath(ctx, 'comparison.pdf');
  // The pages' content is decoded as the report is written: one that does not decode is the input's fault.
  await savePdf(report, out).catch((err: unknown) => {
    throw new ToolError('damaged_input', undefined, { cause: err });
  });
  const changed = pagesChanged(first, second);
  const noText = a.words.length === 0 && b.words.length === 0;
  return {
    path: out,
    name: 'comparison.pdf',
    properties: {
      pages: report.getPageCount(),
      firstPages: a.pages.length,
      secondPages: b.pages.length,
      identical: diff.changes === 0,
      changes: diff.changes,
      wordsRemoved: diff.removed,
      wordsAdded: diff.added,
      pagesChanged: changed.length,
      ...(changed.length <= listedPages && { changedPages: changed }),
      ...(noText && { note: 'Neither document has text to compare: they may be scans.' }),
    },
  };
}
