import { pagesOf } from '@quire/catalog/ranges';
import { rangesOf } from './page-list.ts';

/**
 * The pages a `pages` field names (`1,3-5`, `8-` to the end), as the page view marks them: none for an
 * empty field, undefined for text that is not page ranges of this document (the service says why).
 */
export function marksOf(text: string, pageCount: number): Set<number> | undefined {
  if (!text.trim()) return new Set();
  try {
    return new Set(pagesOf(text, pageCount));
  } catch {
    return undefined;
  }
}

/** The field's text once a page is marked or unmarked: the marks as compact ranges, `2-3,7`. */
export function toggledRanges(marks: ReadonlySet<number>, page: number): string {
  const next = new Set(marks);
  if (!next.delete(page)) next.add(page);
  return rangesOf(next);
}
