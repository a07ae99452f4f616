import { describe, expect, it } from 'vitest';
import { lineSpans, makeLine, settleLine } from './lines.ts';
import type { FontInfo, Frag } from './types.ts';

const roman: FontInfo = { name: 'Times-Roman', family: 'Times New Roman', bold: false, italic: false, mono: false };
const italic: FontInfo = { ...roman, name: 'Times-Italic', italic: true };
const frag = (text: string, x0: number, font = roman): Frag => ({
  text,
  x0,
  x1: x0 + text.length * 5,
  top: 100,
  bottom: 110,
  base: 108,
  size: 10,
  font,
  rtl: false,
  rotated: false,
});

describe('settleLine', () => {
  it('keeps what lineSpans gives, with and without a list marker cut, and lets the fragments go', () => {
    const made = () => [
      makeLine([frag('(a)', 0), frag('S', 20, italic), frag('is', 30), frag('a', 45), frag('set', 55)]),
      makeLine([frag('•', 0), frag('Item', 10), frag('one', 35, italic)]),
      makeLine([frag('x-', 0), frag('ray', 10), frag('é', 30)]),
    ];
    const fresh = made();
    const settled = made();
    settled.forEach(settleLine);
    for (const [i, l] of settled.entries()) {
      expect(l.frags).toEqual([]);
      for (const skip of [0, 1, 3])
        expect(lineSpans(l, skip), `line ${i} skip ${skip}`).toEqual(lineSpans(fresh[i]!, skip));
    }
    expect(lineSpans(settled[0]!, 3).map((s) => s.text)).toEqual(['S', ' is a set']);
  });
});
