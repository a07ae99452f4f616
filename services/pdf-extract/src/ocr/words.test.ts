import { describe, expect, it } from 'vitest';
import { groupLines } from '../layout/lines.ts';
import { tsvWords } from './words.ts';

const header = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';

/**
 * Two columns of five lines of four words, as Tesseract reads a page turned by `degrees`: each word's box
 * where the turn puts it, its line numbered as Tesseract numbers it.
 */
function turnedColumns(degrees: number): { tsv: string; lines: string[] } {
  const slope = Math.tan((degrees * Math.PI) / 180);
  const rows = [header];
  const lines: string[] = [];
  for (const [block, x0] of [
    [1, 100],
    [2, 1300],
  ] as const) {
    for (let line = 1; line <= 5; line++) {
      const words = [1, 2, 3, 4].map((n) => `c${block}l${line}w${n}`);
      lines.push(words.join(' '));
      words.forEach((text, n) => {
        const x = x0 + n * 260;
        // Lines 40 pixels apart, words 30 high: a turn of 1.5° moves a column's right end 26 pixels down.
        const y = 200 + line * 40 + (x - 100) * slope;
        rows.push(['5', '1', block, 1, line, n + 1, x, Math.round(y), 220, 30, 95, text].join('\t'));
      });
    }
  }
  return { tsv: rows.join('\n'), lines };
}

describe('tsvWords', () => {
  it('levels the words of a turned scan, so each of its lines is one line of its own column', () => {
    for (const degrees of [0, 1.5, -2, 4]) {
      const { tsv, lines } = turnedColumns(degrees);
      const found = groupLines(tsvWords(tsv, 0.24)).flatMap((l) => {
        // Two columns side by side make one line of the page: split it at the gutter.
        const left = l.frags.filter((f) => f.x0 < 1300 * 0.24 - 20).map((f) => f.text);
        const right = l.frags.filter((f) => f.x0 >= 1300 * 0.24 - 20).map((f) => f.text);
        return [left.join(' '), right.join(' ')].filter(Boolean);
      });
      expect(found.sort(), `${degrees}°`).toEqual([...lines].sort());
    }
  });

  it('leaves out marks Tesseract is unsure of, not the unsure words of a line it mostly reads surely', () => {
    /** A line of words, each `[text, confidence]`, 60 pixels apart. */
    const line = (n: number, words: [string, number][]) =>
      words.map(([text, conf], i) => ['5', 1, 1, 1, n, i + 1, 10 + i * 60, n * 40, 50, 20, conf, text].join('\t'));
    const tsv = [
      header,
      // The last words of a clear line, read right but given no confidence, as Tesseract does on a noisy scan.
      ...line(1, [
        ['Hello,', 96],
        ['some', 95],
        ['text', 96],
        ['without', 93],
        ['a', 0],
        ['meaning.', 0],
      ]),
      // A mark among sure words, and a figure's marks on a line of their own.
      ...line(2, [
        ['one', 95],
        ['~', 12],
        ['two', 94],
      ]),
      ...line(3, [
        ['ij', 2],
        ['2Q', 20],
        ['+', 21],
        ['o', 22],
      ]),
      ...line(4, [['~', 12]]),
    ].join('\n');
    const lines = groupLines(tsvWords(tsv, 1)).map((l) => l.text);
    expect(lines).toEqual(['Hello, some text without a meaning.', 'one two']);
  });

  it('keeps the words Tesseract read apart apart, however close their boxes', () => {
    const tsv = [
      header,
      ['5', 1, 1, 1, 1, 1, 10, 10, 20, 20, 95, 'of'].join('\t'),
      ['5', 1, 1, 1, 1, 2, 30, 10, 90, 20, 95, 'mentorship'].join('\t'),
    ].join('\n');
    expect(groupLines(tsvWords(tsv, 1)).map((l) => l.text)).toEqual(['of mentorship']);
  });
});
