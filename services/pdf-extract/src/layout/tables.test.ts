import { describe, expect, it } from 'vitest';
import { line } from '../../test/layout.ts';
import type { Rule } from './shapes.ts';
import { latticeTables, streamTables } from './tables.ts';
import type { Frag, Table } from './types.ts';

/** Three columns ruled at x 72, 172, 322, 472; horizontal rules at the given heights only. */
function ruled(ys: number[]): Rule[] {
  const xs = [72, 172, 322, 472];
  const top = ys[0]!;
  const bottom = ys[ys.length - 1]!;
  return [
    ...ys.map((pos) => ({ horizontal: true, pos, a: xs[0]!, b: xs[3]!, width: 0.5 })),
    ...xs.map((pos) => ({ horizontal: false, pos, a: top, b: bottom, width: 0.5 })),
  ];
}

/** A row of cells from a height: each column's lines 12 pt apart. */
function row(top: number, ...columns: string[][]): Frag[] {
  const x = [76, 176, 326];
  return columns.flatMap((lines, c) => lines.flatMap((text, i) => line(text, top + 12 * i, x[c]).frags));
}

const texts = (t: Table) =>
  Array.from({ length: t.rows }, (_, r) =>
    Array.from({ length: t.cols }, (_, c) => t.cells.find((x) => x.row === r && x.col === c)?.text ?? ''),
  );

const page = { x0: 0, x1: 612, top: 0, bottom: 792 };

describe('latticeTables', () => {
  it('splits a ruled band into the rows a blank line sets apart, each starting with its label', () => {
    const frags = [
      ...row(104, ['Source'], ['Definition'], ['Examples']),
      ...row(124, ['Stationary:']),
      ...row(148, ['Major'], ['Emissions of ten', 'tons or more'], ['Utilities,', 'refineries']),
      ...row(188, ['Area'], ['Emissions of less', 'than ten tons'], ['Dry cleaners,', 'gas stations']),
    ];
    const [table] = latticeTables(ruled([100, 118, 220]), frags, page);
    expect(texts(table!)).toEqual([
      ['Source', 'Definition', 'Examples'],
      ['Stationary:', '', ''],
      ['Major', 'Emissions of ten tons or more', 'Utilities, refineries'],
      ['Area', 'Emissions of less than ten tons', 'Dry cleaners, gas stations'],
    ]);
  });

  it('keeps paragraphs within a cell in their row when the label column does not start anew', () => {
    const frags = [
      ...row(104, ['Group'], ['Butter'], ['Margarine']),
      ...row(124, ['Besnier'], ['Total: 18%'], ['Total: 9%']),
      ...row(148, [], ['Bridel (4%)', 'President (13%)'], ['Bridelight (5%)']),
    ];
    const [table] = latticeTables(ruled([100, 118, 180]), frags, page);
    expect(texts(table!)).toEqual([
      ['Group', 'Butter', 'Margarine'],
      ['Besnier', 'Total: 18% Bridel (4%) President (13%)', 'Total: 9% Bridelight (5%)'],
    ]);
  });
});

describe('streamTables', () => {
  /** A typed line: pieces of text at given left edges, on one baseline. */
  const typed = (top: number, ...pieces: [number, string][]) => pieces.flatMap(([x, t]) => line(t, top, x).frags);
  const dashes = (top: number) => typed(top, [72, '-'.repeat(70)]);
  // Typed in one piece, 5 pt a character: the figures fall under the header's columns at 252 and 297.
  const data = (label: string, a: string, b: string) => `${label} ${'.'.repeat(30)} ${a}      ${b}`;
  const table = (top: number, first: string) => [
    ...typed(top, [72, 'Proportion'], [252, first], [297, 'next']),
    ...dashes(top + 12),
    ...typed(top + 24, [72, data('0.99', '800', '880')]),
    ...typed(top + 36, [72, data('0.95', '160', '176')]),
    ...typed(top + 48, [72, data('0.90', '080', '088')]),
  ];

  it('reads a typewriter table: rules typed as dashes dropped, leader dots left out, a new underlined header a new table', () => {
    const found = streamTables([...table(100, '1.0'), ...table(172, '1.7')], []);
    expect(found.map((t) => texts(t)[0])).toEqual([
      ['Proportion', '1.0', 'next'],
      ['Proportion', '1.7', 'next'],
    ]);
    // A cell of dots alone says "nothing here": it stays as it is.
    const blank = streamTables(
      [
        ...typed(100, [72, 'Year'], [252, 'A'], [297, 'B']),
        ...typed(112, [72, '2020'], [252, '....'], [297, '85']),
        ...typed(124, [72, '2021'], [252, '12'], [297, '90']),
      ],
      [],
    );
    expect(texts(blank[0]!)[1]).toEqual(['2020', '....', '85']);
    for (const t of found) {
      expect(t.rows).toBe(4);
      expect(texts(t).map((r) => r[0])).toEqual(['Proportion', '0.99', '0.95', '0.90']);
      expect(t.cells.some((c) => /-{3}|\.{3}/.test(c.text))).toBe(false);
    }
  });

  it('joins a label wrapped over lines to its row, and keeps a new label in capitals a row of its own', () => {
    const frags = [
      ...typed(100, [72, 'Measure'], [252, '2009'], [322, '2010']),
      ...typed(112, [72, 'Data sets available'], [252, '47'], [322, '272']),
      ...typed(124, [72, 'Applications developed'], [252, '0'], [322, '237']),
      ...typed(136, [72, 'by the public']),
      ...typed(148, [72, 'Downloads'], [252, '0'], [322, '652']),
      ...typed(160, [72, 'Total']),
    ];
    const [found] = streamTables(frags, []);
    expect(texts(found!).map((r) => r[0])).toEqual([
      'Measure',
      'Data sets available',
      'Applications developed by the public',
      'Downloads',
    ]);
  });
});
