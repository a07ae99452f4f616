/** Page ranges as people write them: `1-3,4,5-` (a range left open runs to the last page). */
export interface PageRange {
  from: number;
  /** Inclusive; undefined runs to the last page. */
  to: number | undefined;
}

export const pageRangesPattern = /^\s*\d+\s*(-\s*\d*\s*)?(,\s*\d+\s*(-\s*\d*\s*)?)*$/;

export function parsePageRanges(spec: string): PageRange[] {
  if (!pageRangesPattern.test(spec)) throw new RangeError(`"${spec}" is not a list of page ranges`);
  return spec.split(',').map((part) => {
    const [fromText, toText] = part.split('-').map((s) => s.trim());
    const from = Number(fromText);
    const to = toText === undefined ? from : toText === '' ? undefined : Number(toText);
    if (from < 1 || (to !== undefined && to < from)) throw new RangeError(`"${part.trim()}" is not a valid range`);
    return { from, to };
  });
}

/**
 * The pages each range covers in a document of `pageCount` pages, in order.
 * Throws a RangeError naming the first range that reaches past the end.
 */
export function expandPageRanges(ranges: PageRange[], pageCount: number): number[][] {
  return ranges.map(({ from, to }) => {
    const last = to ?? pageCount;
    if (from > pageCount || last > pageCount) {
      throw new RangeError(`the document has ${pageCount} page${pageCount === 1 ? '' : 's'}`);
    }
    return Array.from({ length: last - from + 1 }, (_, i) => from + i);
  });
}

/** The sorted, distinct pages a spec names. */
export function pagesOf(spec: string, pageCount: number): number[] {
  return [...new Set(expandPageRanges(parsePageRanges(spec), pageCount).flat())].sort((a, b) => a - b);
}
