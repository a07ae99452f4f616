import type { Line, PageLayout, Para } from './types.ts';

/**
 * How text flows from line to line and page to page: where a line ends its paragraph, which lines
 * are a page's running header or footer, which paragraph goes on from the page before, and which
 * hyphens at a line's end split a word.
 */

/** The width the first word of a line takes, from the line's average character width. */
function firstWordWidth(line: Line): number {
  const word = /^\S+/.exec(line.text)?.[0] ?? '';
  const n = line.text.length;
  // Spaces are narrower than letters: a word is a little wider than its share of the line.
  return n ? (1.1 * (line.x1 - line.x0) * word.length) / n : 0;
}

/**
 * A line ended its paragraph when the next line's first word would have fitted after it, within
 * `right`, the column's right edge: a typesetter wraps only what does not fit, whatever the
 * justification, so ragged and justified text alike are read right. A hyphen or comma at the
 * end carries on regardless.
 */
export function endsEarly(prev: Line, next: Line, right: number): boolean {
  if (/[-\u00AD\u2010,]$/.test(prev.text)) return false;
  const space = 0.3 * prev.size;
  return prev.x1 + space + firstWordWidth(next) < right - 0.2 * prev.size;
}

/** A table of contents entry: a title, a leader of dots (or a wide gap) and a page number. */
export function isLeaderLine(text: string): boolean {
  return /(?:\.\s?){4,}\s*(?:\d+|[ivxlc]+)$|…{2,}\s*\d+$/i.test(text);
}

/**
 * What a running header or footer says, numbers aside: the page number at either end, with what sets
 * it off, goes too, so that facing pages' mirrored lines ("3 | Title", "Title | 4") are one.
 */
export const furnitureKey = (p: Para) =>
  p.lines
    .map((l) => l.text)
    .join(' ')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .replace(/^(?:[#|·•–—-]\s*)+|(?:\s*[#|·•–—-])+$/g, '')
    .trim()
    .toLowerCase();

/**
 * Running headers and footers: short paragraphs in a page's top or bottom tenth, set no larger than
 * the body text, on pages that hold running text besides, whose text, numbers aside, comes back on at
 * least three pages (both pages of a two-page document). They stay in the layout, marked, for the
 * outputs that rebuild a flowing document to leave out.
 */
export function markFurniture(pages: PageLayout[], bodySize: number): void {
  const seen = new Map<string, Set<number>>();
  const inMargin = (page: PageLayout, p: Para) => p.bottom < 0.1 * page.height || p.top > 0.9 * page.height;
  // The page holds running text besides: a page of tables or pictures has no header to tell apart.
  const margin = (page: PageLayout, p: Para) =>
    p.lines.length <= 2 &&
    p.size <= bodySize + 0.25 &&
    inMargin(page, p) &&
    page.blocks.some((b) => b.kind === 'para' && !inMargin(page, b));
  for (const page of pages)
    for (const b of page.blocks)
      if (b.kind === 'para' && margin(page, b)) {
        const key = `${b.top < page.height / 2 ? 't' : 'b'}:${furnitureKey(b)}`;
        if (!seen.has(key)) seen.set(key, new Set());
        seen.get(key)!.add(page.number);
      }
  const need = pages.length === 2 ? 2 : 3;
  for (const page of pages)
    for (const b of page.blocks)
      if (b.kind === 'para' && margin(page, b)) {
        const key = `${b.top < page.height / 2 ? 't' : 'b'}:${furnitureKey(b)}`;
        if ((seen.get(key)?.size ?? 0) >= need) b.furniture = true;
      }
}

const flowing = (p: PageLayout) => p.blocks.filter((b) => !(b.kind === 'para' && b.furniture));

/**
 * A paragraph a page break cut: the last block of a page and the first of the next are both body
 * text in the same size and weight, the last line did not end its paragraph (its next word would
 * not have fitted), and the next page's first line is neither indented nor a list item.
 */
export function markContinuations(pages: PageLayout[]): void {
  for (let i = 1; i < pages.length; i++) {
    const before = flowing(pages[i - 1]!);
    const last = before[before.length - 1];
    const first = flowing(pages[i]!)[0];
    if (last?.kind !== 'para' || first?.kind !== 'para') continue;
    if (last.role !== 'body' || first.role !== 'body') continue;
    if (Math.abs(last.size - first.size) > 0.5 || last.bold !== first.bold) continue;
    const end = last.lines[last.lines.length - 1]!;
    // The column's right edge: the widest other body line on that page as far left as this
    // paragraph. Without one the line's length tells nothing, and the paragraphs stay apart.
    let right = -Infinity;
    for (const b of before)
      if (b.kind === 'para' && b.role === 'body' && Math.abs(b.x0 - last.x0) < 2 * last.size)
        for (const l of b.lines) if (l !== end) right = Math.max(right, l.x1);
    if (right < end.x1 - 2 || endsEarly(end, first.lines[0]!, right)) continue;
    const rest = first.lines.slice(1);
    if (rest.length && first.lines[0]!.x0 > Math.min(...rest.map((l) => l.x0)) + 0.8 * first.size) continue;
    first.continues = true;
  }
}

/**
 * What a hyphen at a line's end is: a word split by the typesetter ('split': the hyphen goes and the
 * halves join) when the document never writes the pair with a hyphen inside a line, and either the
 * next line goes on in lower case or the document writes the joined word whole; otherwise a hyphen that belongs to the text ('keep': "well-known",
 * "Franco-Prussian", "COVID-19"), the lines joined without a space.
 */
export function markHyphens(pages: PageLayout[]): void {
  const compounds = new Set<string>();
  const words = new Set<string>();
  const paras: Para[] = [];
  for (const page of pages)
    for (const b of page.blocks)
      if (b.kind === 'para') {
        paras.push(b);
        for (const l of b.lines) {
          for (const m of l.text.matchAll(/(\p{L}+)[-\u2010](\p{L}+)/gu))
            compounds.add(`${m[1]!.toLowerCase()}-${m[2]!.toLowerCase()}`);
          for (const m of l.text.matchAll(/(?<![-\u2010\p{L}])\p{L}+(?![-\u2010\p{L}])/gu))
            words.add(m[0].toLowerCase());
        }
      }
  const mark = (a: Line, b: Line | undefined) => {
    const m = /(\p{L}+)[-\u2010]$/u.exec(a.text);
    if (!m || !b) return;
    const next = /^(\p{L}+|\p{N})/u.exec(b.text)?.[1];
    if (!next) return;
    const [head, tail] = [m[1]!.toLowerCase(), next.toLowerCase()];
    if (compounds.has(`${head}-${tail}`)) a.hyphen = 'keep';
    // The word written whole elsewhere ("TraceMonkey") was split, capital or not.
    else if (words.has(head + tail) || /^\p{Ll}/u.test(next)) a.hyphen = 'split';
    else a.hyphen = 'keep';
  };
  paras.forEach((p, i) => {
    p.lines.forEach((l, k) => mark(l, p.lines[k + 1]));
    const next = paras[i + 1];
    if (next?.continues) mark(p.lines[p.lines.length - 1]!, next.lines[0]);
  });
}
