import { furnitureKey } from './flow.ts';
import type { Block, Para, PageLayout, Table } from './types.ts';

/**
 * Tables a page break cut: the last block of a page and the first of the next are tables of as many
 * columns, set at the same places, ruled alike. The second is marked to go on from the first, for the
 * outputs that rebuild a flowing document to join. Running headers and footers do not stand between
 * them, nor does text the two pages repeat at the same place (a title printed over each page's part of
 * the table), which is marked a running header or footer in turn.
 */
export function markTableContinuations(pages: PageLayout[]): void {
  const flowing = (p: PageLayout) => p.blocks.filter((b) => !(b.kind === 'para' && b.furniture));
  for (let i = 1; i < pages.length; i++) {
    const before = flowing(pages[i - 1]!);
    const after = flowing(pages[i]!);
    const footers = takeWhile([...before].reverse(), (b) => repeated(b, pages[i]!.blocks));
    const headers = takeWhile(after, (b) => repeated(b, pages[i - 1]!.blocks));
    const last = before[before.length - 1 - footers.length];
    const first = after[headers.length];
    if (last?.kind !== 'table' || first?.kind !== 'table' || !sameColumns(last, first)) continue;
    first.continues = true;
    for (const p of [...footers, ...headers]) p.furniture = true;
  }
}

function takeWhile(blocks: Block[], keep: (p: Para) => boolean): Para[] {
  const out: Para[] = [];
  for (const b of blocks) {
    if (b.kind !== 'para' || !keep(b)) break;
    out.push(b);
  }
  return out;
}

/** A paragraph another page sets at the same place, in the same size, saying the same (numbers aside). */
function repeated(p: Para, page: Block[]): boolean {
  return page.some(
    (b) =>
      b.kind === 'para' &&
      Math.abs(b.top - p.top) < 0.5 * p.size &&
      Math.abs(b.size - p.size) < 0.5 &&
      furnitureKey(b) === furnitureKey(p),
  );
}

function sameColumns(a: Table, b: Table): boolean {
  if (a.cols !== b.cols || a.ruled !== b.ruled || a.colX.length !== b.colX.length) return false;
  // A column's edges may move by a little where its text decides them (an unruled table).
  return a.colX.every((x, k) => {
    const width = Math.min(...[k - 1, k].filter((j) => j >= 0 && j < a.cols).map((j) => a.colX[j + 1]! - a.colX[j]!));
    return Math.abs(x - b.colX[k]!) <= Math.max(8, 0.2 * width);
  });
}

/**
 * `next`'s rows added under `table`'s, as one table: a first row that repeats the table's own first
 * row (a header printed again on the new page) is left out. Its box and row edges stay the first
 * part's, on the page where it starts.
 */
export function joinTables(table: Table, next: Table): Table {
  const row = (t: Table, r: number) =>
    t.cells
      .filter((c) => c.row === r)
      .sort((x, y) => x.col - y.col)
      .map((c) => `${c.col}:${c.colSpan}:${c.text}`)
      .join('|');
  const headed = table.cells.some((c) => c.row === 0 && c.text);
  const skip = headed && row(next, 0) === row(table, 0) ? 1 : 0;
  const cells = next.cells.filter((c) => c.row >= skip).map((c) => ({ ...c, row: c.row - skip + table.rows }));
  return { ...table, rows: table.rows + next.rows - skip, cells: [...table.cells, ...cells] };
}

/** The tables of a document in order, each one a page break cut joined whole, with the page it starts on. */
export function wholeTables(pages: PageLayout[]): { page: PageLayout; table: Table }[] {
  const out: { page: PageLayout; table: Table }[] = [];
  for (const page of pages)
    for (const b of page.blocks) {
      if (b.kind !== 'table') continue;
      const prev = out.at(-1);
      if (b.continues && prev) prev.table = joinTables(prev.table, b);
      else out.push({ page, table: b });
    }
  return out;
}
