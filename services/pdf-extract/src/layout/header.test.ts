import { describe, expect, it } from 'vitest';
import { line } from '../../test/layout.ts';
import { headerCells, type HeaderPiece } from './header.ts';

/** A header piece: its text on line r at `top`, over columns c0..c1. */
const piece = (text: string, r: number, top: number, c0: number, c1 = c0): HeaderPiece => ({
  r,
  c0,
  c1,
  frags: line(text, top, 100 * c0 + 10).frags,
});

const shape = (cells: ReturnType<typeof headerCells>['cells']) =>
  cells.map((c) => [c.frags.map((f) => f.text).join(' '), c.row, c.col, c.rowSpan, c.colSpan]);

describe('headerCells', () => {
  it('puts a group heading over its columns and the headings beside it over both rows', () => {
    const h = headerCells(
      [
        piece('Name', 0, 0, 0),
        piece('Revenue', 0, 0, 1, 2),
        piece('Total', 0, 0, 3),
        piece('Medical', 1, 16, 1),
        piece('Family', 1, 16, 2),
      ],
      10,
    );
    expect(h.rows).toBe(2);
    expect(shape(h.cells)).toEqual([
      ['Name', 0, 0, 2, 1],
      ['Revenue', 0, 1, 1, 2],
      ['Total', 0, 3, 2, 1],
      ['Medical', 1, 1, 1, 1],
      ['Family', 1, 2, 1, 1],
    ]);
  });

  it('keeps the lines of one heading wrapped in its column as one cell', () => {
    const h = headerCells([piece('Medical &', 0, 0, 1), piece('Public', 1, 11, 1), piece('Name', 0, 0, 0)], 10);
    expect(h.rows).toBe(1);
    expect(shape(h.cells)).toEqual([
      ['Name', 0, 0, 1, 1],
      ['Medical & Public', 0, 1, 1, 1],
    ]);
  });
});
