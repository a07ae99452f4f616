import { gridBox, type Table } from './types.ts';

/**
 * A long table set in several columns across the page (ages and their counts wrapped into three side
 * by side) repeats its header: each repeat, two columns wide or more, is a table of its own.
 */
export function splitRepeated(table: Table): Table[] {
  const header = table.cells.filter((c) => c.row === 0).sort((a, b) => a.col - b.col);
  if (header.length !== table.cols || header.some((c) => c.colSpan !== 1 || c.rowSpan !== 1)) return [table];
  const names = header.map((c) => c.text.trim().toLowerCase());
  for (let width = 2; width <= table.cols / 2; width++) {
    if (table.cols % width || !names.every((n, i) => n !== '' && n === names[i % width])) continue;
    const group = (col: number) => Math.floor(col / width);
    if (table.cells.some((c) => group(c.col) !== group(c.col + c.colSpan - 1))) return [table];
    return Array.from({ length: table.cols / width }, (_, g) => columnsOf(table, g * width, width));
  }
  return [table];
}

/** Columns first..first+width-1 of a table, without the rows left empty at its end. */
function columnsOf(table: Table, first: number, width: number): Table {
  const cells = table.cells
    .filter((c) => c.col >= first && c.col < first + width)
    .map((c) => ({ ...c, col: c.col - first }));
  const rows = Math.max(0, ...cells.filter((c) => c.text.trim()).map((c) => c.row + c.rowSpan));
  const colX = table.colX.slice(first, first + width + 1);
  const rowY = table.rowY.slice(0, rows + 1);
  return {
    ...table,
    cols: width,
    rows,
    cells: cells.filter((c) => c.row < rows),
    colX,
    rowY,
    ...gridBox(colX, rowY),
  };
}
