import { join } from 'node:path';
import { expandPageRanges, parsePageRanges } from '@quire/catalog';
import { fail } from '@quire/base';
import { openPdf, qpdf } from '@quire/pdf';
import type { ToolInput } from '@quire/http';
import type { ToolContext } from '@quire/service-kit';
import { mendPageCounts } from './page-tree.ts';

/** A file in the request's work directory. */
export function workPath(ctx: ToolContext, name: string): string {
  return join(ctx.workdir, name);
}

/**
 * The input ready for qpdf: decrypted with the request's password when it is encrypted, else the
 * upload itself, untouched (no extra pass over large files). When the kit has already opened it (it
 * then says whether it was encrypted), that is the file.
 */
export function openInput(ctx: ToolContext, input: ToolInput, index = 0): Promise<string> {
  if (input.encrypted !== undefined) return Promise.resolve(input.path);
  return openPdf(input.path, ctx.password, ctx, workPath(ctx, `opened-${index}.pdf`));
}

/**
 * The input decrypted and rebuilt by qpdf from its list of pages, which repairs what qpdf can and
 * refuses a page tree that loops, so that pdf-lib reads a sane file and every tool judges damaged
 * inputs alike. For the tools that are not timed against bare qpdf: it costs a pass over the file.
 */
export async function openRepaired(
  ctx: ToolContext,
  input: ToolInput,
): Promise<{ path: string; wasEncrypted: boolean }> {
  const opened = await openInput(ctx, input);
  const repaired = workPath(ctx, 'repaired.pdf');
  const rebuild = (from: string) => qpdf([from, '--pages', '.', '--', repaired], ctx);
  await rebuild(opened).catch(async (err: unknown) => {
    // qpdf will not rebuild a tree whose /Count is false: the counts are mended, then it is rebuilt.
    if (!/\/Count is wrong/.test(String(err instanceof Error ? err.cause : err))) throw err;
    const mended = workPath(ctx, 'mended.pdf');
    await mendPageCounts(opened, mended, ctx);
    await rebuild(mended);
  });
  return { path: repaired, wasEncrypted: input.encrypted ?? opened !== input.path };
}

/**
 * The pages each range of an option covers in a document of `count` pages; a range past the end or
 * backwards is an `invalid_option` naming the field and the page count.
 */
export function pageRangesIn(spec: string, count: number, field: string): number[][] {
  try {
    return expandPageRanges(parsePageRanges(spec), count);
  } catch (err) {
    if (err instanceof RangeError)
      fail('invalid_option', `The option "${field}" is not valid: ${err.message}.`, undefined, {
        option: field,
        pages: count,
      });
    throw err;
  }
}

/** The sorted, distinct pages an option names. */
export function pagesIn(spec: string, count: number, field: string): number[] {
  return [...new Set(pageRangesIn(spec, count, field).flat())].sort((a, b) => a - b);
}

/** Sorted page numbers in qpdf's range syntax, runs folded: [1,2,3,5] -> "1-3,5". */
export function qpdfRange(pages: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < pages.length;) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    parts.push(i === j ? `${pages[i]}` : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
