import { endsEarly } from './flow.ts';
import type { Line } from './types.ts';

/**
 * Where a page sets its paragraphs apart by space rather than by indentation alone, a short line
 * followed at the line pitch by more of the same text is a line break typed inside a paragraph (an
 * address, a simple list, lines of verse), not the paragraph's end. Answers the page's line pitch (the
 * gap between a line's bottom and the next one's top) when it does, undefined when it does not.
 *
 * Counted over pairs of body lines one under the other in a column: gaps clearly wider than the pitch,
 * against paragraphs of wrapped lines whose short last line is followed at the pitch by the next
 * paragraph (not a list's next item), which only a page without paragraph spacing has. The pitch is
 * the lower quartile of the gaps: list items and paragraphs spaced apart would pull a median up.
 */
export function spacedPitch(
  lines: Line[],
  bodySize: number,
  rightOf: (l: Line) => number,
  startsItem: (l: Line) => boolean,
): number | undefined {
  const body = (l: Line) => Math.abs(l.size - bodySize) < 0.5;
  const under = (a: Line, b: Line) => b.top > a.top + 0.3 * a.size && b.x0 < a.x1 && b.x1 > a.x0;
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1]!, lines[i]!];
    const gap = b.top - a.bottom;
    if (body(a) && body(b) && under(a, b) && gap > -2 && gap < 1.5 * a.size) gaps.push(Math.max(0, gap));
  }
  if (gaps.length < 3) return undefined;
  gaps.sort((x, y) => x - y);
  const pitch = gaps[Math.floor(gaps.length / 4)]!;
  const tight = (a: Line, b: Line) => b.top - a.bottom <= pitch + Math.max(2, 0.35 * a.size);
  let spaced = 0;
  let packed = 0;
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1]!, lines[i]!];
    if (!body(a) || !body(b) || !under(a, b) || b.top - a.bottom > 3 * a.size) continue;
    if (!tight(a, b)) {
      spaced++;
      continue;
    }
    const before = lines[i - 2];
    const wrapped =
      before && body(before) && under(before, a) && tight(before, a) && !endsEarly(before, a, rightOf(before));
    if (wrapped && !startsItem(b) && endsEarly(a, b, rightOf(a))) packed++;
  }
  return spaced >= 2 && packed * 4 <= spaced ? pitch : undefined;
}
