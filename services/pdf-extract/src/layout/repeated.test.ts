import { describe, expect, it } from 'vitest';
import { splitRepeated } from './repeated.ts';
import type { Cell, Table } from './types.ts';

/** A table from its rows' texts, columns 50 pt wide from x 72, rows 12 pt high from y 100. */
function grid(rows: string[][]): Table {
  const cells: Cell[] = rows.flatMap((r, row) =>
    r.map((text, col) => ({ row, col, rowSpan: 1, colSpan: 1, lines: [], text })),
  );
  const cols = rows[0]!.length;
  const colX = Array.from({ length: cols + 1 }, (_, i) => 72 + 50 * i);
  const rowY = Array.from({ length: rows.length + 1 }, (_, i) => 100 + 12 * i);
  return {
    kind: 'table',
    rows: rows.length,
    cols,
    cells,
    ruled: false,
    colX,
    rowY,
    x0: 72,
    x1: colX[cols]!,
    top: 100,
    bottom: rowY[rows.length]!,
  };
}

const texts = (t: Table) =>
  Array.from({ length: t.rows }, (_, r) =>
    Array.from({ length: t.cols }, (_, c) => t.cells.find((x) => x.row === r && x.col === c)?.text ?? ''),
  );

describe('splitRepeated', () => {
  it('makes each repeat of a header a table of its own, its empty last rows left out', () => {
    const parts = splitRepeated(
      grid([
        ['Age', 'Total', 'Age', 'Total', 'Age', 'Total'],
        ['1', '10', '3', '30', '5', '50'],
        ['2', '20', '4', '40', '', ''],
      ]),
    );
    expect(parts.map(texts)).toEqual([
      [
        ['Age', 'Total'],
        ['1', '10'],
        ['2', '20'],
      ],
      [
        ['Age', 'Total'],
        ['3', '30'],
        ['4', '40'],
      ],
      [
        ['Age', 'Total'],
        ['5', '50'],
      ],
    ]);
    expect(parts.map((p) => [p.x0, p.x1, p.bottom])).toEqual([
      [72, 172, 136],
      [172, 272, 136],
      [272, 372, 124],
    ]);
  });

  it('keeps a table whose header does not repeat, or repeats one column only', () => {
    const one = grid([
      ['Year', '%', '%', '%'],
      ['2020', '1', '2', '3'],
    ]);
    expect(splitRepeated(one)).toEqual([one]);
    const other = grid([
      ['Age', 'Total', 'Age', 'Men'],
      ['1', '2', '3', '4'],
    ]);
    expect(splitRepeated(other)).toEqual([other]);
  });
});
