import { isLeaderLine } from './flow.ts';
import type { PageLayout, Para } from './types.ts';

/** Body lines a title page may hold besides its titles: an author, a date, a version. */
const titlePageBodyLines = 6;

/**
 * Headings that head no section: the title and subtitles of a title page, and the title over a table
 * of contents. They stay headings to the eye; a word processor keeps them out of the outline.
 */
export function markTitles(pages: PageLayout[]): void {
  if (pages.length > 1) markTitlePage(pages[0]!, pages.slice(1));
  for (const page of pages) markContentsTitle(page);
}

const parasOf = (page: PageLayout) => page.blocks.filter((b): b is Para => b.kind === 'para' && !b.furniture);

/**
 * A first page whose headings are all set larger than any heading after it, with little else on it,
 * is a title page: its largest heading is the document's title, the others its subtitles.
 */
function markTitlePage(first: PageLayout, rest: PageLayout[]): void {
  const paras = parasOf(first);
  const headings = paras.filter((p) => p.role === 'heading');
  if (headings.length === 0) return;
  const later = Math.max(
    0,
    ...rest.flatMap((page) =>
      parasOf(page)
        .filter((p) => p.role === 'heading')
        .map((p) => p.size),
    ),
  );
  if (headings.some((h) => h.size <= later + 0.5)) return;
  const bodyLines = paras.filter((p) => p.role !== 'heading').reduce((n, p) => n + p.lines.length, 0);
  if (bodyLines > titlePageBodyLines) return;
  const title = headings.reduce((a, b) => (b.size > a.size + 0.5 ? b : a));
  for (const h of headings) h.titling = h === title ? 'title' : 'subtitle';
}

/** A heading followed by entries with leaders to their page numbers is the title of a table of contents. */
function markContentsTitle(page: PageLayout): void {
  const paras = parasOf(page);
  for (const [i, p] of paras.entries()) {
    const next = paras[i + 1];
    if (p.role === 'heading' && !p.titling && next?.lines.some((l) => isLeaderLine(l.text))) p.titling = 'contents';
  }
}
