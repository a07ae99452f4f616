import { boxOf, type Box, type Frag } from './types.ts';

/** A piece of text in a table's header: the line it is on (0 the first) and the columns it covers. */
export interface HeaderPiece {
  r: number;
  c0: number;
  c1: number;
  frags: Frag[];
}

export interface HeaderCell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  frags: Frag[];
}

interface Group extends Box {
  c0: number;
  c1: number;
  /** The first and last lines it is on, and their middles. */
  r0: number;
  r1: number;
  y0: number;
  y1: number;
  frags: Frag[];
}

/**
 * A header piece over several columns made of words set apart (wider than a space) where a column
 * boundary falls between them holds two cells' words on one line ("Weight | Controls"): split there.
 */
export function splitAtColumns<P extends HeaderPiece>(
  p: P,
  colX: number[],
  size: number,
  colOf: (x: number) => number,
): P[] {
  if (p.c0 === p.c1 || p.frags.length < 2) return [p];
  const frags = [...p.frags].sort((a, b) => a.x0 - b.x0);
  const out: P[] = [];
  let cur: Frag[] = [frags[0]!];
  const flush = () => {
    const b = boxOf(cur);
    out.push({ ...p, c0: colOf(b.x0 + 0.5), c1: colOf(b.x1 - 0.5), frags: cur });
  };
  for (const f of frags.slice(1)) {
    const end = Math.max(...cur.map((c) => c.x1));
    if (f.x0 - end > 0.4 * size && colX.some((x) => x > end && x < f.x0)) {
      flush();
      cur = [];
    }
    cur.push(f);
  }
  flush();
  return out;
}

/**
 * The columns a header piece heads among those it reaches over: the run of columns whose figures it
 * is centred over. A label that runs a little past its column's edge ("Concentration" beside "No.")
 * heads its own column; a group's heading ("Capital") sits over the middle of its columns.
 */
export function fitColumns<P extends HeaderPiece>(p: P, extents: Box[]): P {
  if (p.c0 === p.c1) return p;
  const b = boxOf(p.frags);
  const mid = (b.x0 + b.x1) / 2;
  let best = { c0: p.c0, c1: p.c1, off: Infinity };
  for (let c0 = p.c0; c0 <= p.c1; c0++)
    for (let c1 = c0; c1 <= p.c1; c1++) {
      const off = Math.abs((extents[c0]!.x0 + extents[c1]!.x1) / 2 - mid);
      if (off < best.off - 0.5) best = { c0, c1, off };
    }
  return { ...p, c0: best.c0, c1: best.c1 };
}

const sharesColumns = (a: { c0: number; c1: number }, b: { c0: number; c1: number }) => a.c0 <= b.c1 && b.c0 <= a.c1;

/**
 * The cells of a header set over several lines without rules. A piece over the same columns as the
 * one under it, as tight as lines are set, is the same cell wrapped ("Medical &" / "Public" /
 * "Health"); a piece over several columns heads a group, and what stands under it makes the next row.
 * A cell beside a group (nothing above or below it in the header) spans the header's rows, as its box
 * does on the page. `cuts` are the y positions between the header's rows.
 */
export function headerCells(
  pieces: HeaderPiece[],
  size: number,
): { cells: HeaderCell[]; rows: number; cuts: number[] } {
  const items = pieces.map((p) => ({ ...p, box: boxOf(p.frags) }));
  const parent = items.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  /** The pieces on the nearest line below (or above) that share a column with piece i. */
  const nearest = (i: number, dir: 1 | -1) => {
    const a = items[i]!;
    const others = items
      .map((b, j) => ({ b, j }))
      .filter(({ b }) => (dir > 0 ? b.r > a.r : b.r < a.r) && sharesColumns(a, b));
    if (!others.length) return [];
    const line = dir > 0 ? Math.min(...others.map((o) => o.b.r)) : Math.max(...others.map((o) => o.b.r));
    return others.filter((o) => o.b.r === line).map((o) => o.j);
  };
  items.forEach((a, i) => {
    const below = nearest(i, 1);
    if (below.length !== 1) return;
    const j = below[0]!;
    const b = items[j]!;
    const above = nearest(j, -1);
    if (above.length !== 1 || above[0] !== i) return;
    if (a.c0 !== b.c0 || a.c1 !== b.c1 || b.box.top - a.box.bottom > 0.5 * size) return;
    parent[root(j)] = root(i);
  });
  const byRoot = new Map<number, Group>();
  items.forEach((p, i) => {
    const k = root(i);
    const mid = (p.box.top + p.box.bottom) / 2;
    const g = byRoot.get(k);
    if (!g) {
      byRoot.set(k, { ...p.box, c0: p.c0, c1: p.c1, r0: p.r, r1: p.r, y0: mid, y1: mid, frags: [...p.frags] });
      return;
    }
    Object.assign(g, boxOf([g, p.box]));
    if (p.r < g.r0) [g.r0, g.y0] = [p.r, mid];
    if (p.r > g.r1) [g.r1, g.y1] = [p.r, mid];
    g.frags.push(...p.frags);
  });
  const groups = [...byRoot.values()];
  // Between two cells one above the other the header has a row boundary; boundaries closer than
  // half a line are one.
  const ys: number[] = [];
  for (const a of groups)
    for (const b of groups) if (b !== a && b.r0 > a.r1 && sharesColumns(a, b)) ys.push((a.bottom + b.top) / 2);
  ys.sort((p, q) => p - q);
  const cuts: number[] = [];
  let run: number[] = [];
  for (const y of ys) {
    if (run.length && y - run[run.length - 1]! > 0.5 * size) {
      cuts.push(run.reduce((s, v) => s + v, 0) / run.length);
      run = [];
    }
    run.push(y);
  }
  if (run.length) cuts.push(run.reduce((s, v) => s + v, 0) / run.length);
  const rows = cuts.length + 1;
  const rowAt = (y: number) => cuts.filter((c) => c < y).length;
  const placed = groups.map((g) => ({ g, r0: rowAt(g.y0), r1: Math.max(rowAt(g.y0), rowAt(g.y1)) }));
  // A group's heading has cells of its own under it; only then do the cells beside it span rows.
  const grouped = groups.some((a) => groups.filter((b) => b.r0 > a.r1 && b.c0 >= a.c0 && b.c1 <= a.c1).length >= 2);
  if (grouped)
    for (const p of placed) {
      const above = placed.filter((q) => q !== p && q.r1 < p.r0 && sharesColumns(q.g, p.g));
      const below = placed.filter((q) => q !== p && q.r0 > p.r1 && sharesColumns(q.g, p.g));
      p.r0 = above.length ? Math.max(...above.map((q) => q.r1)) + 1 : 0;
      p.r1 = below.length ? Math.min(...below.map((q) => q.r0)) - 1 : rows - 1;
    }
  // Two pieces that claim one position (text that ran over): the later one joins the cell there.
  const owner = new Map<string, HeaderCell>();
  const cells: HeaderCell[] = [];
  for (const { g, r0, r1 } of placed.sort((a, b) => a.r0 - b.r0 || a.g.c0 - b.g.c0)) {
    const host = owner.get(`${r0}:${g.c0}`);
    if (host) {
      host.frags.push(...g.frags);
      continue;
    }
    let c1 = g.c0;
    while (c1 < g.c1 && !owner.has(`${r0}:${c1 + 1}`)) c1++;
    let end = r0;
    while (end < r1 && [...Array(c1 - g.c0 + 1).keys()].every((k) => !owner.has(`${end + 1}:${g.c0 + k}`))) end++;
    const cell = { row: r0, col: g.c0, rowSpan: end - r0 + 1, colSpan: c1 - g.c0 + 1, frags: g.frags };
    for (let r = r0; r <= end; r++) for (let c = g.c0; c <= c1; c++) owner.set(`${r}:${c}`, cell);
    cells.push(cell);
  }
  return { cells, rows, cuts };
}
