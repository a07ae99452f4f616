import { describe, expect, it } from 'vitest';
import { line } from '../../test/layout.ts';
import { paraSpans } from '../render/common.ts';
import { layoutPage } from './blocks.ts';
import type { Para } from './types.ts';

const full = (n: number) => `${'word '.repeat(17)}w${n}`; // 450 pt: the column's width

/** A page of 10 pt lines, each `[text, top]`; lines 12 pt apart are set at the line pitch. */
function paras(lines: [string, number, number?][]): Para[] {
  const frags = lines.flatMap(([text, top, x0]) => line(text, top, x0).frags);
  const raw = { width: 612, height: 792, frags, rules: [], boxes: [], images: [], imageCount: 0, strokes: [] };
  const page = layoutPage({ number: 1, raw: { ...raw, imageBoxes: [], turn: 0 }, figures: [] });
  return page.blocks.filter((b): b is Para => b.kind === 'para');
}

const text = (p: Para) =>
  paraSpans(p)
    .map((s) => s.text)
    .join('');

describe('line breaks typed inside a paragraph', () => {
  // A paragraph, a simple list typed with line breaks, a paragraph; `space` between paragraphs.
  const page = (space: number) => {
    let top = 100;
    const at = (gap: number) => (top += 10 + gap) - 10 - gap;
    return paras([
      [full(1), at(2)],
      [full(2), at(2)],
      ['as follows:', at(space)],
      ['Chapters referred to', at(2)],
      ['Books and user guides', at(2)],
      ['Options in dialogs', at(space)],
      [full(3), at(2)],
      [full(4), at(2)],
      ['the end.', at(space)],
    ]);
  };

  it('keeps short lines at the line pitch in one paragraph, broken where they were, on a page that spaces its paragraphs', () => {
    const ps = page(10);
    expect(ps.map((p) => p.lines.length)).toEqual([3, 3, 3]);
    expect(text(ps[1]!)).toBe('Chapters referred to\nBooks and user guides\nOptions in dialogs');
    // The paragraphs' own wrapped lines still join with a space.
    expect(text(ps[0]!)).toBe(`${full(1)} ${full(2)} as follows:`);
  });

  it('ends a paragraph at each short line on a page that does not space its paragraphs', () => {
    const ps = page(2);
    expect(ps.map((p) => p.lines.length)).toEqual([3, 1, 1, 1, 3]);
    expect(ps.some((p) => p.lines.some((l) => l.brk))).toBe(false);
  });

  it('never joins a list item or an indented line to the short line above it', () => {
    const ps = paras([
      [full(1), 100],
      ['done.', 112],
      [full(2), 132],
      ['short one', 144],
      ['• an item', 156],
      [full(3), 176],
      ['short two', 188],
      ['indented start', 200, 90],
      [full(4), 220],
      ['done.', 232],
    ]);
    expect(ps.map((p) => p.lines[0]!.text)).toEqual([
      full(1),
      full(2),
      '• an item',
      full(3),
      'indented start',
      full(4),
    ]);
    expect(ps.flatMap((p) => p.lines).some((l) => l.brk)).toBe(false);
  });
});
