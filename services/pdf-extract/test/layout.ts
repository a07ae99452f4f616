/** Layout pieces made by hand for the layout and writer tests: lines of 10 pt text, 5 pt a character. */
import type { Line, PageLayout, Para } from '../src/layout/types.ts';

export function line(text: string, top: number, x0 = 72, size = 10): Line {
  const box = { x0, x1: x0 + text.length * 0.5 * size, top, bottom: top + size, base: top + size, size };
  const font = { name: 'Serif', family: '', bold: false, italic: false, mono: false };
  return { frags: [{ text, ...box, font, rtl: false, rotated: false }], text, ...box };
}

export function para(lines: Line[], opts: Partial<Para> = {}): Para {
  return {
    kind: 'para',
    role: 'body',
    level: 0,
    ordered: false,
    marker: '',
    lines,
    size: lines[0]!.size,
    bold: false,
    x0: Math.min(...lines.map((l) => l.x0)),
    x1: Math.max(...lines.map((l) => l.x1)),
    top: lines[0]!.top,
    bottom: lines[lines.length - 1]!.bottom,
    ...opts,
  };
}

export function page(number: number, blocks: Para[]): PageLayout {
  return { number, width: 612, height: 792, blocks, scanned: false, chars: 1 };
}
