import { describe, expect, it } from 'vitest';
import { line, page, para } from '../../test/layout.ts';
import { flowBlocks } from '../render/common.ts';
import { markTableContinuations, wholeTables } from './table-runs.ts';
import type { Block, PageLayout, Table } from './types.ts';

/** A ruled table of one-line cells, its columns' edges at `colX`, its rows 12 pt apart from `top`. */
function table(rows: string[][], top: number, colX = [72, 200, 330, 460]): Table {
  const rowY = rows.map((_, r) => top + 12 * r).concat(top + 12 * rows.length);
  const cells = rows.flatMap((row, r) =>
    row.map((text, col) => ({ row: r, col, rowSpan: 1, colSpan: 1, lines: [], text })),
  );
  const box = { x0: colX[0]!, x1: colX.at(-1)!, top, bottom: rowY.at(-1)! };
  return { kind: 'table', rows: rows.length, cols: colX.length - 1, cells, ruled: true, colX, rowY, ...box };
}

const pages = (...blocks: Block[][]): PageLayout[] => blocks.map((b, i) => ({ ...page(i + 1, []), blocks: b }));

const texts = (t: Table) =>
  Array.from({ length: t.rows }, (_, r) =>
    t.cells
      .filter((c) => c.row === r)
      .sort((a, b) => a.col - b.col)
      .map((c) => c.text),
  );

describe('tables a page break cut', () => {
  const head = ['Name', 'Town', 'Votes'];

  it('are one table, its header printed again on the next page left out, a title over each part taken for a running header', () => {
    const doc = pages(
      [para([line('Results by town', 40)]), table([head, ['Ann', 'Ayr', '12'], ['Bo', 'Ely', '7']], 60)],
      [para([line('Results by town', 40)]), table([head, ['Cy', 'Rye', '3']], 60)],
    );
    markTableContinuations(doc);
    const whole = wholeTables(doc);
    expect(whole).toHaveLength(1);
    expect(texts(whole[0]!.table)).toEqual([head, ['Ann', 'Ayr', '12'], ['Bo', 'Ely', '7'], ['Cy', 'Rye', '3']]);
    // The Word and HTML flow: the title once, then the one table.
    const flow = flowBlocks({ pages: doc, bodySize: 10 }).flatMap((p) => p.blocks);
    expect(flow.map((b) => b.kind)).toEqual(['para', 'table']);
    expect((flow[1] as Table).rows).toBe(4);
  });

  it('keeps a first row that is not the header again', () => {
    const doc = pages([table([head, ['Ann', 'Ayr', '12']], 600)], [table([['Bo', 'Ely', '7']], 60)]);
    markTableContinuations(doc);
    expect(texts(wholeTables(doc)[0]!.table)).toEqual([head, ['Ann', 'Ayr', '12'], ['Bo', 'Ely', '7']]);
  });

  it('stay apart with other columns, or with text of the page between them', () => {
    const moved = pages([table([head], 600)], [table([['Bo', 'Ely', '7']], 60, [72, 150, 330, 460])]);
    const fewer = pages([table([head], 600)], [table([['Bo', 'Ely']], 60, [72, 200, 330])]);
    const text = pages([table([head], 600), para([line('Notes: 1. counted twice.', 700)])], [table([head], 60)]);
    for (const doc of [moved, fewer, text]) {
      markTableContinuations(doc);
      expect(wholeTables(doc)).toHaveLength(2);
    }
  });
});
