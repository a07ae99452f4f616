import { pagesOfPlan, type PlannedPage, type Turn } from '@quire/catalog/page-plan';

/** One page of the new document as the page view shows it: an input page turned, or a blank page. */
export type Sheet = PlannedPage;

/** Every page of a document in its own order, unturned. */
export function allPages(pageCount: number): Sheet[] {
  return Array.from({ length: pageCount }, (_, i) => ({ page: i + 1, turn: 0 as Turn }));
}

/** The pages a plan makes, or undefined when the text is not a plan this document can follow. */
export function sheetsOfPlan(plan: string, pageCount: number): Sheet[] | undefined {
  if (!plan.trim()) return allPages(pageCount);
  try {
    return pagesOfPlan(plan, pageCount);
  } catch {
    return undefined;
  }
}

/**
 * The shortest plan that makes these pages: runs of consecutive pages turned alike become ranges,
 * forwards or backwards (`1-5,8,6r90`, `9-7`).
 */
export function planOf(sheets: Sheet[]): string {
  const parts: string[] = [];
  for (let i = 0; i < sheets.length;) {
    const first = sheets[i]!;
    if ('blank' in first) {
      parts.push('blank');
      i++;
      continue;
    }
    let j = i + 1;
    const next = sheets[j];
    const step = next && !('blank' in next) && next.turn === first.turn ? next.page - first.page : 0;
    if (step === 1 || step === -1) {
      for (; ; j++) {
        const a = sheets[j - 1] as { page: number; turn: Turn };
        const b = sheets[j];
        if (!b || 'blank' in b || b.turn !== first.turn || b.page - a.page !== step) break;
      }
    }
    const last = sheets[j - 1] as { page: number };
    const pages = j - i > 1 ? `${first.page}-${last.page}` : `${first.page}`;
    parts.push(first.turn ? `${pages}r${first.turn}` : pages);
    i = j;
  }
  return parts.join(',');
}

/** Page numbers as ranges, in ascending order without repeats: 1,2,3,5 gives `1-3,5`. */
export function rangesOf(pages: Iterable<number>): string {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The list with the item at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** A page turned a quarter clockwise; a blank page stays as it is. */
export function turned(sheet: Sheet): Sheet {
  return 'blank' in sheet ? sheet : { page: sheet.page, turn: ((sheet.turn + 90) % 360) as Turn };
}
