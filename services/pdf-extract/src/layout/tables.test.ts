import { describe, expect, it } from 'vitest';
import { line } from '../../test/layout.ts';
import type { Rule } from './shapes.ts';
import { latticeTables } from './tables.ts';
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
