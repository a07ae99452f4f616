/**
 * A page plan: the pages of a new document, in order, as people write them. Items are separated by
 * commas: a page (`3`), a range (`1-4`, backwards `4-1`, or open to the end `5-`), each optionally
 * turned clockwise (`2r90`, `1-3r180`), or `blank` for an empty page the size of its neighbour.
 * Pages may repeat; pages left out are dropped. Example: `3,1-2,5r90,blank,2`.
 */
export type PlanItem = { from: number; to: number | undefined; turn: Turn } | { blank: true };

/** One page of the new document: an input page turned by `turn` degrees, or a blank page. */
export type PlannedPage = { page: number; turn: Turn } | { blank: true };

export type Turn = 0 | 90 | 180 | 270;

const item = String.raw`\s*(?:blank|\d+\s*(?:-\s*\d*\s*)?(?:r\s*(?:90|180|270)\s*)?)\s*`;
export const pagePlanPattern = new RegExp(`^${item}(?:,${item})*$`, 'i');

export function parsePagePlan(spec: string): PlanItem[] {
  if (!pagePlanPattern.test(spec)) throw new RangeError(`"${spec}" is not a page plan`);
  return spec.split(',').map((raw) => {
    const part = raw.trim().toLowerCase();
    if (part === 'blank') return { blank: true };
    const m = /^(\d+)\s*(-\s*(\d*))?\s*(?:r\s*(\d+))?$/.exec(part)!;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : m[3] === '' ? undefined : Number(m[3]);
    if (from < 1 || to === 0) throw new RangeError(`"${raw.trim()}" names page 0; pages start at 1`);
    return { from, to, turn: Number(m[4] ?? 0) as Turn };
  });
}

/**
 * The pages a plan makes of a document of `pageCount` pages, in order. Throws a RangeError naming
 * the page count when an item reaches past the end, or when the plan holds no page of the document.
 */
export function expandPagePlan(items: PlanItem[], pageCount: number): PlannedPage[] {
  const pages: PlannedPage[] = [];
  for (const it of items) {
    if ('blank' in it) {
      pages.push(it);
      continue;
    }
    const last = it.to ?? pageCount;
    if (it.from > pageCount || last > pageCount) {
      throw new RangeError(`the document has ${pageCount} page${pageCount === 1 ? '' : 's'}`);
    }
    const step = last >= it.from ? 1 : -1;
    for (let p = it.from; p !== last + step; p += step) pages.push({ page: p, turn: it.turn });
  }
  if (!pages.some((p) => !('blank' in p))) throw new RangeError('it must name at least one page of the document');
  return pages;
}

/** The pages of a plan written as text, for a document of `pageCount` pages. */
export function pagesOfPlan(spec: string, pageCount: number): PlannedPage[] {
  return expandPagePlan(parsePagePlan(spec), pageCount);
}
