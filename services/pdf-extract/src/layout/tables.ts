import type { Rule } from './shapes.ts';
import { fitColumns, headerCells, splitAtColumns } from './header.ts';
import { groupLines } from './lines.ts';
import { boxOf, gridBox, median, type Box, type Cell, type Frag, type Table } from './types.ts';

const tol = 2.5;

const numeric = /^[\s(+\-–−$€£¥%]*\d[\d\s.,']*[%)]?\s*$|^[-–—]$|^n\.?a\.?$/i;

/** Positions within `eps` of each other as one (their mean), sorted. */
function clusterPositions(values: number[], eps: number): number[] {
  const s = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of s) {
    const last = out[out.length - 1];
    if (last && v - last[last.length - 1]! <= eps) last.push(v);
    else out.push([v]);
  }
  return out.map((g) => g.reduce((a, b) => a + b, 0) / g.length);
}

/** Collinear touching or overlapping rules as one. */
function mergeRules(rules: Rule[]): Rule[] {
  const out: Rule[] = [];
  for (const horizontal of [true, false]) {
    const group = rules.filter((r) => r.horizontal === horizontal).sort((a, b) => a.pos - b.pos || a.a - b.a);
    const rows: Rule[][] = [];
    for (const r of group) {
      const row = rows.find((x) => Math.abs(x[0]!.pos - r.pos) <= 1.5);
      if (row) row.push(r);
      else rows.push([r]);
    }
    for (const row of rows) {
      row.sort((a, b) => a.a - b.a);
      let cur: Rule | undefined;
      for (const r of row) {
        if (cur && r.a <= cur.b + tol) cur.b = Math.max(cur.b, r.b);
        else {
          if (cur) out.push(cur);
          cur = { ...r };
        }
      }
      if (cur) out.push(cur);
    }
  }
  return out;
}

function find(parent: number[], i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]!]!;
    i = parent[i]!;
  }
  return i;
}

function union(parent: number[], a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra !== rb) parent[ra] = rb;
}

export interface TableResult {
  tables: Table[];
  used: Set<Frag>;
}

function centerIn(f: Frag, b: Box, pad = 1): boolean {
  const cx = (f.x0 + f.x1) / 2;
  const cy = (f.top + f.bottom) / 2;
  return cx >= b.x0 - pad && cx <= b.x1 + pad && cy >= b.top - pad && cy <= b.bottom + pad;
}

/** Dots leading from a label to its figures ("0.95 ........"): the way to the next cell, not text of this one. */
const leader = /([^\s.])\s*(?:\.\s*){3,}$/;

function cellText(frags: Frag[]): { lines: ReturnType<typeof groupLines>; text: string } {
  const lines = groupLines(frags);
  return {
    lines,
    text: lines
      .map((l) => l.text)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(leader, '$1'),
  };
}

/** A row typed as a rule: dashes, underscores or equals signs only, drawing the line a ruled table draws. */
const typedRule = (row: Row) => row.segs.every((s) => /^[-_=─━–—\s]{3,}$/.test(s.text));

/** Tables drawn with ruling lines: grids of crossing rules, spans where a rule is missing. */
export function latticeTables(rawRules: Rule[], frags: Frag[], pageBox: Box): Table[] {
  const rules = mergeRules(rawRules.filter((r) => r.b - r.a >= 4));
  if (rules.length < 4 || rules.length > 4000) return [];
  const hs = rules.filter((r) => r.horizontal);
  const vs = rules.filter((r) => !r.horizontal);
  const parent = rules.map((_, i) => i);
  const index = new Map(rules.map((r, i) => [r, i]));
  for (const h of hs) {
    for (const v of vs) {
      if (v.pos >= h.a - tol && v.pos <= h.b + tol && h.pos >= v.a - tol && h.pos <= v.b + tol)
        union(parent, index.get(h)!, index.get(v)!);
    }
  }
  const groups = new Map<number, Rule[]>();
  rules.forEach((r, i) => {
    const root = find(parent, i);
    const g = groups.get(root);
    if (g) g.push(r);
    else groups.set(root, [r]);
  });
  const tables: Table[] = [];
  for (const group of groups.values()) {
    const gh = group.filter((r) => r.horizontal);
    const gv = group.filter((r) => !r.horizontal);
    if (gh.length < 2 || gv.length < 2) continue;
    const xs = clusterPositions(
      gv.map((r) => r.pos),
      3,
    );
    const ys = clusterPositions(
      gh.map((r) => r.pos),
      3,
    );
    if (xs.length < 2 || ys.length < 2) continue;
    const box = { x0: xs[0]!, x1: xs[xs.length - 1]!, top: ys[0]!, bottom: ys[ys.length - 1]! };
    if (box.x1 - box.x0 > pageBox.x1 - pageBox.x0 + 5 && box.bottom - box.top > pageBox.bottom - pageBox.top + 5)
      continue;
    const inside = frags.filter((f) => !f.rotated && centerIn(f, box));
    if (!inside.length) continue;
    const table = gridTable(xs, ys, gv, gh, inside);
    if (table) tables.push(table);
  }
  return tables;
}

/** Whether some text in the band top..bottom runs across x. */
function crosses(frags: Frag[], x: number, top: number, bottom: number): boolean {
  return frags.some(
    (f) => f.x0 < x - 1 && f.x1 > x + 1 && (f.top + f.bottom) / 2 > top && (f.top + f.bottom) / 2 < bottom,
  );
}

function covers(rules: Rule[], pos: number, a: number, b: number): boolean {
  let covered = 0;
  for (const r of rules) {
    if (Math.abs(r.pos - pos) > tol + 1) continue;
    covered += Math.max(0, Math.min(r.b, b) - Math.max(r.a, a));
  }
  return covered >= 0.6 * (b - a);
}

/**
 * Rows a ruled table does not rule: a band between two rules that holds several rows lined up across
 * columns is split between them. Rows of figures (a list of countries beside their figures) are
 * split at every line with a figure; rows of words (a label beside its wrapped definition) where
 * a blank line sets them apart and the next starts with its label, in the first column, and in
 * another column at once (paragraphs within a cell start in its column alone).
 */
function splitBands(
  xs: number[],
  ys: number[],
  frags: Frag[],
): { ys: number[]; virtual: { y: number; x0: number; x1: number }[] } {
  const out: number[] = [ys[0]!];
  const virtual: { y: number; x0: number; x1: number }[] = [];
  const columnOf = (f: Frag) =>
    xs.findIndex((x, c) => c + 1 < xs.length && (f.x0 + f.x1) / 2 >= x && (f.x0 + f.x1) / 2 < xs[c + 1]!);
  for (let r = 0; r + 1 < ys.length; r++) {
    const top = ys[r]!;
    const bottom = ys[r + 1]!;
    const band = frags.filter((f) => (f.top + f.bottom) / 2 > top && (f.top + f.bottom) / 2 < bottom);
    const lines = groupLines(band);
    const columns = lines.map((l) => new Set(l.frags.map(columnOf).filter((c) => c >= 0)));
    const cut = (i: number) => {
      const y = (lines[i - 1]!.bottom + lines[i]!.top) / 2;
      out.push(y);
      // The split holds in every column except where a piece of text crosses it.
      for (let c = 0; c + 1 < xs.length; c++) {
        const crosses = band.some(
          (f) => f.top < y - 0.5 && f.bottom > y + 0.5 && (f.x0 + f.x1) / 2 >= xs[c]! && (f.x0 + f.x1) / 2 < xs[c + 1]!,
        );
        if (!crosses) virtual.push({ y, x0: xs[c]!, x1: xs[c + 1]! });
      }
    };
    if (lines.length >= 2) {
      const perCol = xs.slice(0, -1).map((_, c) => columns.filter((set) => set.has(c)).length);
      const multi = perCol.filter((n) => n >= 2).length;
      const numericLines = band.filter((f) => numeric.test(f.text)).length;
      const gaps = lines.slice(1).map((l, i) => l.top - lines[i]!.bottom);
      const leading = median(gaps.filter((g) => g > -1));
      // Figures on (nearly) every line: rows of data. Words only: a header's cells wrapping.
      if (multi >= 2 && numericLines >= Math.max(2, lines.length - 1)) {
        const hasNumber = lines.map((l) => l.frags.some((f) => numeric.test(f.text)));
        for (let i = 1; i < lines.length; i++) {
          if (gaps[i - 1]! < -1) continue;
          // Lines of words one after another are one row wrapped (a header, a long label).
          if (hasNumber[i] || hasNumber[i - 1]) cut(i);
        }
      } else if (multi >= 2) {
        for (let i = 1; i < lines.length; i++)
          if (gaps[i - 1]! > leading + 0.5 * lines[i]!.size && columns[i]!.has(0) && columns[i]!.size >= 2) cut(i);
      }
    }
    out.push(bottom);
  }
  return { ys: out, virtual };
}

/**
 * A piece of text that runs across a column rule holds several cells (one text operation with
 * spaces between them): split it at the space nearest each rule, glyph widths taken as even.
 */
function splitAcross(frags: Frag[], xs: number[]): Frag[] {
  const out: Frag[] = [];
  for (const f of frags) {
    const inner = xs.filter((x) => x > f.x0 + 1 && x < f.x1 - 1);
    if (!inner.length || !f.text.includes(' ') || f.rotated) {
      out.push(f);
      continue;
    }
    const per = (f.x1 - f.x0) / f.text.length;
    let start = 0;
    const cuts: number[] = [];
    for (const x of inner) {
      const ideal = (x - f.x0) / per;
      let best = -1;
      for (let i = start; i < f.text.length; i++)
        if (f.text[i] === ' ' && (best < 0 || Math.abs(i - ideal) < Math.abs(best - ideal))) best = i;
      if (best > start && Math.abs(best - ideal) * per < 3 * f.size) {
        cuts.push(best);
        start = best + 1;
      }
    }
    let from = 0;
    for (const c of [...cuts, f.text.length]) {
      const text = f.text.slice(from, c).trim();
      if (text) {
        const lead = f.text.slice(from, c).length - f.text.slice(from, c).trimStart().length;
        const x0 = f.x0 + (from + lead) * per;
        out.push({ ...f, text, x0, x1: x0 + text.length * per });
      }
      from = c + 1;
    }
  }
  return out;
}

/**
 * Columns a ruled table does not rule: inside one ruled column, a clear vertical band of white that
 * nearly every piece of text keeps clear of (Male | Female under one ruled group) splits it.
 */
function splitColumns(xs: number[], frags: Frag[]): { xs: number[]; virtual: Rule[]; top: number; bottom: number } {
  const out: number[] = [xs[0]!];
  const virtual: Rule[] = [];
  const top = Math.min(...frags.map((f) => f.top));
  const bottom = Math.max(...frags.map((f) => f.bottom));
  for (let c = 0; c + 1 < xs.length; c++) {
    const a = xs[c]!;
    const b = xs[c + 1]!;
    const inCol = frags.filter((f) => (f.x0 + f.x1) / 2 > a && (f.x0 + f.x1) / 2 < b);
    if (inCol.length >= 6) {
      const size = median(inCol.map((f) => f.size));
      const width = Math.ceil(b - a);
      const cover = new Int32Array(width + 1);
      for (const f of inCol)
        for (let x = Math.max(0, Math.floor(f.x0 - a)); x <= Math.min(width, Math.ceil(f.x1 - a)); x++) cover[x]!++;
      const allowed = Math.floor(inCol.length * 0.12);
      let start = -1;
      for (let x = 0; x <= width; x++) {
        const free = cover[x]! <= allowed;
        if (free && start < 0) start = x;
        if (!free && start >= 0) {
          // Interior gaps only: text on both sides.
          const left = inCol.filter((f) => f.x1 - a <= start + 0.5).length;
          const right = inCol.filter((f) => f.x0 - a >= x - 0.5).length;
          if (start > 0 && x - start >= Math.max(0.45 * size, 3) && left >= 3 && right >= 3) {
            const pos = a + (start + x) / 2;
            out.push(pos);
            virtual.push({ horizontal: false, pos, a: top - 1, b: bottom + 1, width: 0 });
          }
          start = -1;
        }
      }
    }
    out.push(b);
  }
  return { xs: out, virtual, top, bottom };
}

/** A run of leader dots between a label and its figures, typed as a token of its own. */
const leaderToken = /^(?:\.{3,}|…+)$/;

/**
 * Figures set in one text operation ("1,087,948 1,022,490", or "0.99 ...... 800 880" typed on a
 * typewriter) are cells side by side: split them, glyph widths taken as even, leader dots left out.
 */
export function splitNumbers(frags: Frag[]): Frag[] {
  const out: Frag[] = [];
  for (const f of frags) {
    const tokens = f.text.trim().split(/ +/);
    const figure = (t: string) => numeric.test(t) && /\d/.test(t);
    if (
      f.rotated ||
      tokens.length < 2 ||
      !tokens.every((t) => figure(t) || leaderToken.test(t)) ||
      !tokens.some(figure)
    ) {
      out.push(f);
      continue;
    }
    const per = (f.x1 - f.x0) / f.text.length;
    let at = 0;
    for (const t of tokens) {
      const i = f.text.indexOf(t, at);
      const x0 = f.x0 + i * per;
      if (!leaderToken.test(t)) out.push({ ...f, text: t, x0, x1: x0 + t.length * per });
      at = i + t.length;
    }
  }
  return out;
}

function gridTable(rawXs: number[], rawYs: number[], rawVs: Rule[], rawHs: Rule[], inFrags: Frag[]): Table | undefined {
  const rawFrags = splitNumbers(inFrags);
  // Only a grid of two or more ruled columns is refined; a single ruled box is left to the text.
  if (rawXs.length < 3) return undefined;
  const cols = splitColumns(rawXs, rawFrags);
  const xs = cols.xs;
  // A virtual rule holds except across the rows where text runs over it (a group's header).
  const vs: Rule[] = [...rawVs];
  for (const v of cols.virtual) {
    let from = v.a;
    const crossing = rawFrags.filter((f) => f.x0 < v.pos - 1 && f.x1 > v.pos + 1).sort((p, q) => p.top - q.top);
    for (const f of crossing) {
      if (f.top - 1 > from) vs.push({ ...v, a: from, b: f.top - 1 });
      from = Math.max(from, f.bottom + 1);
    }
    if (v.b > from) vs.push({ ...v, a: from, b: v.b });
  }
  const frags = splitAcross(rawFrags, xs);
  const { ys, virtual } = splitBands(xs, rawYs, frags);
  const hs: Rule[] = [...rawHs, ...virtual.map((v) => ({ horizontal: true, pos: v.y, a: v.x0, b: v.x1, width: 0 }))];
  const nr = ys.length - 1;
  const nc = xs.length - 1;
  const id = (r: number, c: number) => r * nc + c;
  const parent = Array.from({ length: nr * nc }, (_, i) => i);
  for (let r = 0; r < nr; r++) {
    for (let c = 0; c < nc; c++) {
      // Without a rule between two cells they are one only if text runs across: columns of figures
      // under a ruled header often go on without rules of their own.
      if (c + 1 < nc && !covers(vs, xs[c + 1]!, ys[r]!, ys[r + 1]!) && crosses(frags, xs[c + 1]!, ys[r]!, ys[r + 1]!))
        union(parent, id(r, c), id(r, c + 1));
      if (r + 1 < nr && !covers(hs, ys[r + 1]!, xs[c]!, xs[c + 1]!)) union(parent, id(r, c), id(r + 1, c));
    }
  }
  const spans = new Map<number, { r0: number; r1: number; c0: number; c1: number }>();
  for (let r = 0; r < nr; r++) {
    for (let c = 0; c < nc; c++) {
      const root = find(parent, id(r, c));
      const s = spans.get(root);
      if (s) {
        s.r0 = Math.min(s.r0, r);
        s.r1 = Math.max(s.r1, r);
        s.c0 = Math.min(s.c0, c);
        s.c1 = Math.max(s.c1, c);
      } else spans.set(root, { r0: r, r1: r, c0: c, c1: c });
    }
  }
  const owner = new Map<number, number>();
  const cells: (Cell & { frags: Frag[] })[] = [];
  for (const s of [...spans.values()].sort((a, b) => a.r0 - b.r0 || a.c0 - b.c0)) {
    let free = true;
    for (let r = s.r0; r <= s.r1 && free; r++) for (let c = s.c0; c <= s.c1; c++) if (owner.has(id(r, c))) free = false;
    if (!free) continue;
    for (let r = s.r0; r <= s.r1; r++) for (let c = s.c0; c <= s.c1; c++) owner.set(id(r, c), cells.length);
    cells.push({
      row: s.r0,
      col: s.c0,
      rowSpan: s.r1 - s.r0 + 1,
      colSpan: s.c1 - s.c0 + 1,
      lines: [],
      text: '',
      frags: [],
    });
  }
  const at = (v: number, edges: number[]) => {
    for (let i = 0; i < edges.length - 1; i++) if (v < edges[i + 1]!) return i;
    return edges.length - 2;
  };
  for (const f of frags) {
    const r = at((f.top + f.bottom) / 2, ys);
    const c = at((f.x0 + f.x1) / 2, xs);
    const k = owner.get(id(r, c));
    if (k !== undefined) cells[k]!.frags.push(f);
  }
  // A real table has at least two columns and two rows of cells, with text in more than one.
  const filled = cells.filter((c) => c.frags.length);
  const colsUsed = new Set(filled.map((c) => c.col)).size;
  const rowsUsed = new Set(filled.map((c) => c.row)).size;
  if (filled.length < 2 || colsUsed < 2 || rowsUsed < 2 || (nc < 2 && nr < 3) || nc < 2 || nr < 2) return undefined;
  // A chart's grid holds a few labels in a sea of empty cells: not a table.
  if (filled.length < 0.12 * nr * nc) return undefined;
  return finish(...trimCaptions(cells, nr, nc, ys), xs, true);
}

const captionRe = /^(table|exhibit|figure|fig\.|chart|source|sources|note|notes|\*)/i;

/** A title or a note boxed in with a ruled table ("Exhibit 3 ...", "Source: ...") is not one of its rows. */
function trimCaptions(
  cells: (Cell & { frags: Frag[] })[],
  nr: number,
  nc: number,
  ys: number[],
): [(Cell & { frags: Frag[] })[], number, number, number[]] {
  const filledIn = (r: number) => cells.filter((c) => c.row <= r && c.row + c.rowSpan > r && c.frags.length);
  const caption = (r: number) => {
    const f = filledIn(r);
    return f.length === 1 && f[0]!.rowSpan === 1 && captionRe.test(groupLines(f[0]!.frags)[0]?.text ?? '');
  };
  let first = 0;
  let last = nr - 1;
  while (first < last - 1 && caption(first)) first++;
  while (last > first + 1 && caption(last)) last--;
  if (first === 0 && last === nr - 1) return [cells, nr, nc, ys];
  const kept = cells
    .filter((c) => c.row >= first && c.row + c.rowSpan - 1 <= last)
    .map((c) => ({ ...c, row: c.row - first }));
  return [kept, last - first + 1, nc, ys.slice(first, last + 2)];
}

function finish(
  cells: (Cell & { frags: Frag[] })[],
  rows: number,
  cols: number,
  rowY: number[],
  colX: number[],
  ruled: boolean,
): Table {
  const out: Cell[] = cells.map(({ frags, ...c }) => {
    const t = cellText(frags);
    return { ...c, lines: t.lines, text: t.text };
  });
  return {
    kind: 'table',
    rows,
    cols,
    cells: out,
    ruled,
    colX,
    rowY,
    ...gridBox(colX, rowY),
  };
}

interface Segment extends Box {
  frags: Frag[];
  text: string;
}

/** A line of running text: long, and words rather than figures. */
function isProse(text: string): boolean {
  if (text.length < 30) return false;
  const tokens = text.split(/\s+/);
  const words = tokens.filter((t) => /^[(‘“"']?\p{L}[\p{L}'’-]*[)’”"',.;:]*$/u.test(t)).length;
  return words >= 5 && words >= 0.7 * tokens.length;
}

const wordsRe = /^[(‘“"']?\p{L}[\p{L}'’.,;:)”"-]*$/u;

/** A line of running text in a narrow column: several words, and words rather than figures. */
function isTextLine(text: string): boolean {
  const tokens = text.split(/\s+/).filter(Boolean);
  return text.length >= 20 && tokens.length >= 3 && tokens.filter((t) => wordsRe.test(t)).length >= 0.5 * tokens.length;
}

/**
 * Columns of running text side by side (a page set in columns) line up like a table's. With no column
 * of figures, the run is text when two columns or more hold mostly lines of running text, or when
 * every column holds mostly long lines (a column of web addresses or references among them).
 */
function textColumns(pieces: { c0: number; text: string }[], nc: number): boolean {
  let text = 0;
  let long = 0;
  let filled = 0;
  for (let c = 0; c < nc; c++) {
    const own = pieces.filter((p) => p.c0 === c);
    if (!own.length) continue;
    filled++;
    if (own.filter((p) => numeric.test(p.text)).length >= Math.max(2, 0.3 * own.length)) return false;
    if (own.length >= 2 && own.filter((p) => isTextLine(p.text)).length >= 0.6 * own.length) text++;
    if (own.length >= 2 && own.filter((p) => p.text.length >= 20).length >= 0.6 * own.length) long++;
  }
  return text >= 2 || (filled >= 2 && long === filled);
}

/**
 * A formula set out on lines of its own (a matrix, cases, a sum with its limits) lines up like a
 * table: many of its pieces are mathematical signs, or lone brackets, where a table's cells hold words
 * and figures.
 */
const mathSign = /[∑∏∫∮⋃⋂∈∉∋⊆⊂⊇⊃∪∩⇒⇐⇔⟹⟸↦≤≥≠≈≡∀∃∂∇√︸︷︶︵⎛⎞⎝⎠⎜⎟⎡⎤⎣⎦]|^[\s()[\]{}|∣]+$/u;

function isFormula(pieces: { text: string }[]): boolean {
  return pieces.filter((p) => mathSign.test(p.text)).length >= Math.max(2, 0.2 * pieces.length);
}

/** Pieces of a table row, not counting lines of a text column that runs beside the table. */
function pieceCount(row: Row): number {
  return row.segs.filter((s) => !isProse(s.text)).length;
}

interface Row extends Box {
  segs: Segment[];
  size: number;
}

const figure = /^[^\p{L}]*\d[^\p{L}]*$/u;

/**
 * Two figures side by side are two cells, however close ("7,111 2,599.5"), unless the second is
 * the next group of digits of the first ("1 087").
 */
function apart(a: Frag, b: Frag): boolean {
  return figure.test(a.text) && figure.test(b.text) && !(/(^|\s)\d{1,3}$/.test(a.text) && /^\d{3}\b/.test(b.text));
}

/** Page-wide rows of text split into segments at wide gaps, and between figures. */
function rowsOf(frags: Frag[]): Row[] {
  const lines = groupLines(splitNumbers(frags));
  return lines.map((line) => {
    const segs: Segment[] = [];
    let cur: Frag[] = [];
    const flush = () => {
      if (!cur.length) return;
      const b = boxOf(cur);
      segs.push({
        ...b,
        frags: cur,
        text: groupLines(cur)
          .map((l) => l.text)
          .join(' '),
      });
      cur = [];
    };
    const sorted = [...line.frags].sort((a, b) => a.x0 - b.x0);
    for (const f of sorted) {
      const last = cur[cur.length - 1];
      const gap = f.x0 - Math.max(...cur.map((c) => c.x1));
      if (last && (gap > Math.max(0.9 * Math.min(last.size, f.size), 4) || (gap > 0.2 * f.size && apart(last, f))))
        flush();
      cur.push(f);
    }
    flush();
    // A list marker set apart from its words ("•   text", "1.   text") is not a column, at the start
    // of a row or beside another column of text.
    for (let k = segs.length - 2; k >= 0; k--) {
      if (!/^([•◦▪●○■□►–-]|\(?\d{1,2}[.)]|\(?[a-z][.)])$/.test(segs[k]!.text.trim())) continue;
      if (!/\p{L}{2,}.*\s.*\p{L}/u.test(segs[k + 1]!.text)) continue;
      const [a, b] = [segs[k]!, segs[k + 1]!];
      segs.splice(k, 2, { ...boxOf([a, b]), frags: [...a.frags, ...b.frags], text: `${a.text} ${b.text}` });
    }
    return { x0: line.x0, x1: line.x1, top: line.top, bottom: line.bottom, segs, size: line.size };
  });
}

/**
 * A row's label wrapped over lines: a line holding one piece only, set right under the label and
 * starting where it starts, in lower case (the sentence goes on), joins the label rather than
 * making a row of its own.
 */
function joinWrappedLabels(rows: Row[], underlined: Set<Row>): Row[] {
  const out: Row[] = [];
  for (const row of rows) {
    const prev = out[out.length - 1];
    const label = prev?.segs[0];
    const piece = row.segs[0]!;
    // An underlined header keeps its identity: it tells where the next table begins.
    const wraps =
      prev &&
      label &&
      !underlined.has(prev) &&
      prev.segs.length >= 2 &&
      row.segs.length === 1 &&
      Math.abs(piece.x0 - label.x0) < 0.5 * row.size &&
      piece.x1 < (prev.segs[1]?.x0 ?? Infinity) &&
      row.top - label.bottom < 0.6 * row.size &&
      /^\p{Ll}/u.test(piece.text);
    if (!wraps) {
      out.push(row);
      continue;
    }
    const joined = {
      ...boxOf([label, piece]),
      frags: [...label.frags, ...piece.frags],
      text: `${label.text} ${piece.text}`,
    };
    out[out.length - 1] = { ...prev, ...boxOf([prev, row]), segs: [joined, ...prev.segs.slice(1)] };
  }
  return out;
}

/**
 * Tables without (full) ruling: runs of rows whose pieces of text line up in columns, with clear
 * vertical bands of white space between them.
 */
export function streamTables(
  frags: Frag[],
  rules: Rule[],
  strokes: { x: number; y: number }[] = [],
  pictures: Box[] = [],
): Table[] {
  const all = rowsOf(frags.filter((f) => !f.rotated));
  // A row typed as a rule is dropped; the row above one heads a table (a typewriter's header underlined).
  const underlined = new Set(all.filter((r, k) => !typedRule(r) && all[k + 1] && typedRule(all[k + 1]!)));
  const rows = joinWrappedLabels(
    all.filter((r) => !typedRule(r)),
    underlined,
  );
  const tables: Table[] = [];
  let i = 0;
  while (i < rows.length) {
    if (pieceCount(rows[i]!) < 2) {
      i++;
      continue;
    }
    // Grow a run of rows: multi-piece rows, with at most two single-piece rows in a row between them.
    let j = i;
    let lastMulti = i;
    while (j + 1 < rows.length) {
      const next = rows[j + 1]!;
      const prev = rows[j]!;
      const gap = next.top - prev.bottom;
      if (gap > 2.8 * Math.max(prev.size, next.size)) break;
      // Another underlined header after rows of this table's own: the next table begins.
      if (underlined.has(next) && lastMulti > i) break;
      if (pieceCount(next) >= 2) lastMulti = j + 1;
      else if (j + 1 - lastMulti > 2) break;
      j++;
    }
    const run = rows.slice(i, lastMulti + 1);
    let table = runTable(run);
    // Labels around a chart's plot line up like a table: a plot has many diagonal strokes and curves,
    // or many more lines and marks beside its labels than they have pieces of text.
    if (table) {
      const t = table.table;
      const inside = strokes.filter((p) => p.x >= t.x0 && p.x <= t.x1 && p.y >= t.top && p.y <= t.bottom).length;
      if (inside > 12) table = undefined;
      const m = 2 * median(run.map((r) => r.bottom - r.top));
      const near = (x: number, y: number) => x >= t.x0 - m && x <= t.x1 + m && y >= t.top - m && y <= t.bottom + m;
      const marks =
        strokes.filter((p) => near(p.x, p.y)).length +
        mergeRules(rules.filter((r) => (r.horizontal ? near((r.a + r.b) / 2, r.pos) : near(r.pos, (r.a + r.b) / 2))))
          .length;
      if (marks > Math.max(30, 3 * t.cells.filter((c) => c.text).length)) table = undefined;
      const area = (t.x1 - t.x0) * (t.bottom - t.top);
      for (const p of pictures) {
        const w = Math.min(p.x1, t.x1) - Math.max(p.x0, t.x0);
        const h = Math.min(p.bottom, t.bottom) - Math.max(p.top, t.top);
        // A picture about the table's size under its text: a chart with its labels. (A page-wide
        // picture behind a table is its background.)
        if (w > 0 && h > 0 && w * h > 0.3 * area && (p.x1 - p.x0) * (p.bottom - p.top) < 1.3 * area) table = undefined;
      }
    }
    if (table) {
      tables.push(table.table);
      i = i + table.consumed;
    } else i++;
  }
  return tables;
}

/**
 * A table set in one column of a two-column page has the other column's lines of text beside it:
 * when lines of running text lie to one side of the table's pieces, that side is cut off.
 */
function besideProse(run: Row[]): Row[] {
  const segs = run.flatMap((r) => r.segs);
  const prose = segs.filter((s) => isProse(s.text));
  if (prose.length < 3) return run;
  // A column of text is justified; the long labels of a table's rows are not.
  const edge = Math.max(...prose.map((s) => s.x1));
  const flush = prose.filter((s) => s.x1 > edge - 2).length;
  if (flush < Math.max(3, 0.5 * prose.length)) return run;
  const right = Math.min(...prose.map((s) => s.x0));
  const left = Math.max(...prose.map((s) => s.x1));
  const keep =
    run.filter((r) => r.segs.filter((s) => s.x1 < right).length >= 2).length >= 3
      ? (s: Segment) => s.x1 < right
      : run.filter((r) => r.segs.filter((s) => s.x0 > left).length >= 2).length >= 3
        ? (s: Segment) => s.x0 > left
        : undefined;
  if (!keep) return run;
  return run.flatMap((r) => {
    const kept = r.segs.filter(keep);
    return kept.length ? [{ ...r, ...boxOf(kept), segs: kept }] : [];
  });
}

const titleRe = /^(table|exhibit|figure|fig\.|chart)\s*[:.]?\s*[\dIVX]/i;

/**
 * The first lines of a run that title the table rather than head its columns: a caption ("Table 5:
 * ...") or text set larger than the table's.
 */
function withoutTitle(run: Row[]): Row[] {
  const size = median(run.map((r) => r.size));
  let k = 0;
  while (k < run.length - 3 && (titleRe.test(run[k]!.segs[0]?.text ?? '') || run[k]!.size > 1.2 * size)) k++;
  return run.slice(k);
}

function runTable(rows: Row[]): { table: Table; consumed: number } | undefined {
  const run = withoutTitle(besideProse(rows));
  const multi = run.filter((r) => r.segs.length >= 2 && pieceCount(r) >= 1);
  if (multi.length < 3) return undefined;
  const x0 = Math.min(...multi.map((r) => r.x0));
  const x1 = Math.max(...multi.map((r) => r.x1));
  const width = Math.ceil(x1 - x0) + 2;
  const coverage = new Int32Array(width);
  for (const r of multi) {
    for (const s of r.segs) {
      for (let x = Math.max(0, Math.floor(s.x0 - x0)); x < Math.min(width, Math.ceil(s.x1 - x0)); x++) coverage[x]!++;
    }
  }
  const allowed = Math.floor(multi.length * 0.15);
  const size = median(multi.map((r) => r.size));
  const gaps: [number, number][] = [];
  let start = -1;
  for (let x = 0; x < width; x++) {
    const free = coverage[x]! <= allowed;
    if (free && start < 0) start = x;
    if ((!free || x === width - 1) && start >= 0) {
      const end = free ? x + 1 : x;
      if (start > 0 && end < width - 1 && end - start >= Math.max(0.3 * size, 2.5)) gaps.push([start + x0, end + x0]);
      start = -1;
    }
  }
  if (!gaps.length) return undefined;
  const colX = [x0, ...gaps.map(([a, b]) => (a + b) / 2), x1];
  const nc = colX.length - 1;
  const colOf = (x: number) => {
    for (let c = 0; c < nc; c++) if (x < colX[c + 1]!) return c;
    return nc - 1;
  };
  // Cells: each piece of text covers the columns its extent overlaps.
  type Piece = { r: number; c0: number; c1: number; frags: Frag[]; text: string };
  const pieces: Piece[] = [];
  run.forEach((row, r) => {
    for (const s of row.segs) {
      const c0 = colOf(s.x0 + 0.5);
      const c1 = colOf(s.x1 - 0.5);
      pieces.push({ r, c0, c1, frags: s.frags, text: s.text });
    }
  });
  // The lines above the first row of figures are the header, whose cells may span lines and columns.
  const firstData = run.findIndex((_, r) => pieces.some((p) => p.r === r && numeric.test(p.text)));
  // A header is a few lines over the rows of figures; many lines of words before the first figure are
  // rows of the table that do not hold figures, whose tight lines are one row wrapped.
  const hasHeader = firstData > 0 && firstData <= 8 && 2 * firstData <= run.length;
  if (!hasHeader)
    for (let r = Math.max(0, firstData) - 1; r > 0; r--) {
      if (run[r]!.top - run[r - 1]!.bottom > 0.6 * run[r]!.size) continue;
      for (const p of pieces) if (p.r === r) p.r = r - 1;
    }
  // Where each column's figures stand (its whole width when it has none).
  const extents = colX.slice(1).map((_, c) => {
    const own = pieces.filter((p) => p.r >= firstData && p.c0 === c && p.c1 === c);
    return own.length ? boxOf(own.flatMap((p) => p.frags)) : { x0: colX[c]!, x1: colX[c + 1]!, top: 0, bottom: 0 };
  });
  const head = hasHeader
    ? headerCells(
        pieces
          .filter((p) => p.r < firstData)
          .flatMap((p) => splitAtColumns(p, colX, size, colOf))
          .map((p) => fitColumns(p, extents)),
        size,
      )
    : { cells: [], rows: 0, cuts: [] };
  const shift = hasHeader ? head.rows - firstData : 0;
  const body = pieces.filter((p) => p.r >= (hasHeader ? firstData : 0)).map((p) => ({ ...p, r: p.r + shift }));
  // Column pieces that are long prose mean text columns, not a table.
  const avgLen = pieces.reduce((n, p) => n + p.text.length, 0) / pieces.length;
  const numericShare = pieces.filter((p) => numeric.test(p.text)).length / pieces.length;
  if (avgLen > 40 || textColumns(pieces, nc) || isFormula(pieces)) return undefined;
  if (nc === 2 && numericShare < 0.3 && avgLen > 18) return undefined;
  const filledCols = new Set(pieces.map((p) => p.c0)).size;
  if (filledCols < 2) return undefined;
  const nr = run.length + shift;
  const cells: (Cell & { frags: Frag[] })[] = head.cells.map((c) => ({
    ...c,
    lines: [],
    text: '',
    frags: [...c.frags],
  }));
  const taken = new Set<string>();
  for (let r = head.rows; r < nr; r++) {
    for (const p of body.filter((q) => q.r === r)) {
      let c0 = p.c0;
      while (taken.has(`${r}:${c0}`) && c0 <= p.c1) c0++;
      if (c0 > p.c1) {
        const host = cells.find((c) => c.row === r && c.col <= p.c0 && c.col + c.colSpan - 1 >= p.c0);
        host?.frags.push(...p.frags);
        continue;
      }
      for (let c = c0; c <= p.c1; c++) taken.add(`${r}:${c}`);
      cells.push({ row: r, col: c0, rowSpan: 1, colSpan: p.c1 - c0 + 1, lines: [], text: '', frags: [...p.frags] });
    }
  }
  // Axis labels of a chart line up too, but leave most of the grid empty; a table fills it.
  const covered = cells.reduce((n, c) => n + (c.frags.length ? c.colSpan * c.rowSpan : 0), 0);
  if (covered < 0.45 * nr * nc) return undefined;
  const from = hasHeader ? firstData : 0;
  const between = run.slice(from + 1).map((r, k) => (run[from + k]!.bottom + r.top) / 2);
  const rowY = [
    run[0]!.top - 1,
    ...head.cuts,
    ...(from > 0 ? [(run[from - 1]!.bottom + run[from]!.top) / 2] : []),
    ...between,
    run[run.length - 1]!.bottom + 1,
  ];
  return { table: finish(cells, nr, nc, rowY, colX, false), consumed: rows.length };
}
