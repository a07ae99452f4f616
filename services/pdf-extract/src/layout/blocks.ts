import type { RawPage } from './extract.ts';
import { spacedPitch } from './breaks.ts';
import { endsEarly, isLeaderLine } from './flow.ts';
import { groupLines, makeLine } from './lines.ts';
import { splitRepeated } from './repeated.ts';
import { latticeTables, streamTables } from './tables.ts';
import {
  boxOf,
  median,
  type Block,
  type Box,
  type Figure,
  type Frag,
  type Line,
  type PageLayout,
  type Para,
  type Table,
} from './types.ts';

/** Something the reading order places: a piece of text, or a table or image kept whole. */
type Atom = Box & ({ frag: Frag } | { block: Table | Figure });

const bulletRe = /^([•◦▪▫●○■□►▸‣⁃∙·∗*➢➤✓✔❖♦◆–—-])\s*/;
const orderedRe = /^((?:\d{1,3}|[a-z]|[ivxlc]{1,6})[.)]|\((?:\d{1,3}|[a-z]|[ivxlc]{1,6})\))\s+/;

export function listMarker(text: string): { marker: string; ordered: boolean } | undefined {
  const b = bulletRe.exec(text);
  if (b && text.length > b[0].length + 1) {
    // A dash only counts when a space follows it, so "-5%" or "—and" are not lists.
    if (/[–—-]/.test(b[1]!) && !/^[–—-]\s/.test(text)) return undefined;
    return { marker: b[1]!, ordered: false };
  }
  const o = orderedRe.exec(text);
  if (o && text.length > o[0].length + 1 && /\p{L}/u.test(text.slice(o[0].length, o[0].length + 3)))
    return { marker: o[1]!, ordered: true };
  return undefined;
}

function chars(items: readonly Atom[]): number {
  let n = 0;
  for (const a of items) if ('frag' in a) n += a.frag.text.length;
  return n;
}

function rowsOf(items: readonly Atom[]): number {
  const ys = items.filter((a) => 'frag' in a).map((a) => Math.round((a.top + a.bottom) / 2));
  const sorted = [...new Set(ys)].sort((a, b) => a - b);
  let rows = 0;
  let last = -Infinity;
  for (const y of sorted) {
    if (y - last > 3) rows++;
    last = y;
  }
  return rows;
}

/** Empty bands of a projection: [start, end) gaps between the items' extents along one axis. */
function gaps(items: readonly Box[], axis: 'x' | 'y'): [number, number][] {
  const spans = items
    .map((a) => (axis === 'x' ? [a.x0, a.x1] : [a.top, a.bottom]) as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  let end = spans[0]![1];
  for (const [a, b] of spans.slice(1)) {
    if (a > end) out.push([end, a]);
    end = Math.max(end, b);
  }
  return out;
}

function sizeOf(items: readonly Atom[]): number {
  return median(items.filter((a) => 'frag' in a).map((a) => ('frag' in a ? a.frag.size : 10))) || 10;
}

/**
 * Columns side by side: a clear vertical band of white space crosses the region from top to bottom,
 * and both sides hold running text, not a table's short cells. The parts in reading order.
 */
function verticalCut(items: Atom[], size: number): Atom[][] | undefined {
  const rows = rowsOf(items);
  // Page numbers and other tiny pieces may sit in a gutter; they do not close it. Tiny pieces set
  // close to others on their line (a symbol, an index) are part of that line and do.
  const short = items.filter((a) => 'frag' in a && a.frag.text.trim().length <= 3);
  const loose = new Set(
    short.filter(
      (a) =>
        !items.some((b) => b !== a && b.top < a.bottom && b.bottom > a.top && b.x0 < a.x1 + size && b.x1 > a.x0 - size),
    ),
  );
  const solid = items.filter((a) => !loose.has(a));
  const minGap = rows >= 4 ? 0.7 : rows >= 2 ? 1.0 : 2.5;
  const vgaps = solid.length > 1 ? gaps(ocrJoined(solid), 'x').filter(([a, b]) => b - a >= minGap * size) : [];
  if (!vgaps.length) return undefined;
  const parts: Atom[][] = [];
  let rest = [...solid].sort((a, b) => a.x0 - b.x0);
  for (const [, b] of vgaps) {
    parts.push(rest.filter((a) => a.x1 <= b));
    rest = rest.filter((a) => a.x1 > b);
  }
  parts.push(rest);
  const ok = parts.every((p) => {
    const n = chars(p);
    if (n === 0) return true;
    const r = Math.max(1, rowsOf(p));
    return n / r >= 12;
  });
  if (!ok || parts.filter((p) => p.length).length < 2) return undefined;
  const top = Math.min(...solid.map((a) => a.top));
  const bottom = Math.max(...solid.map((a) => a.bottom));
  const before: Atom[] = [];
  const after: Atom[] = [];
  for (const a of loose) {
    if (a.bottom <= top) before.push(a);
    else if (a.top >= bottom) after.push(a);
    else {
      const cx = (a.x0 + a.x1) / 2;
      let k = vgaps.findIndex(([g0, g1]) => cx < (g0 + g1) / 2);
      if (k < 0) k = parts.length - 1;
      parts[k]!.push(a);
    }
  }
  return [before, ...parts, after];
}

/**
 * Recursive XY cut: a region splits into columns (side by side, or two with rows across them),
 * otherwise at its widest horizontal gap. Leaves come out in reading order.
 */
function xyCut(items: Atom[], out: Atom[][], depth = 0): void {
  if (items.length <= 1 || depth > 400) {
    if (items.length) out.push(items);
    return;
  }
  const size = sizeOf(items);
  const parts = verticalCut(items, size);
  if (parts) {
    for (const p of parts) xyCut(p, out, depth + 1);
    return;
  }
  if (gutterCut(items, size, out, depth)) return;
  const hgaps = gaps(items, 'y');
  if (!hgaps.length) {
    out.push(items);
    return;
  }
  let best = hgaps[0]!;
  for (const g of hgaps) if (g[1] - g[0] > best[1] - best[0]) best = g;
  const mid = (best[0] + best[1]) / 2;
  xyCut(
    items.filter((a) => a.top < mid),
    out,
    depth + 1,
  );
  xyCut(
    items.filter((a) => a.top >= mid),
    out,
    depth + 1,
  );
}

/** A column is read top down, unless it holds columns of its own. */
function readColumn(items: Atom[], out: Atom[][], depth: number): void {
  if (items.length <= 1 || depth > 400) {
    if (items.length) out.push(items);
    return;
  }
  const size = sizeOf(items);
  const parts = verticalCut(items, size);
  if (parts) for (const p of parts) readColumn(p, out, depth + 1);
  else if (!gutterCut(items, size, out, depth)) out.push(items);
}

/**
 * Two columns that a few rows run across (a title, a wide figure, the footer): the gutter is the
 * band most rows leave white with text on both sides, scored as rows split minus three times rows
 * crossing. Each column is read as a column, the left before the right, up to a row that
 * crosses; that row stands alone. Rows of a wide figure cross too, but they share a white band of their
 * own: split there, they go on with the columns.
 */
function gutterCut(items: Atom[], size: number, out: Atom[][], depth: number): boolean {
  const flat = items.filter((a): a is Box & { frag: Frag } => 'frag' in a && !a.frag.rotated);
  const lines = groupLines(flat.map((a) => a.frag));
  if (lines.length < 8) return false;
  const atomOf = new Map(flat.map((a) => [a.frag, a as Atom]));
  const loose = items.filter((a) => !('frag' in a) || a.frag.rotated);
  const x0 = Math.min(...items.map((a) => a.x0));
  const x1 = Math.max(...items.map((a) => a.x1));
  const w = Math.max(3, 0.5 * size);
  const spans = new Map(lines.map((l) => [l, ocrSpans(l)]));
  // A line whose words an OCR engine read as one line has them on both sides of the band [g, g + w].
  const parted = (l: Line, g: number) => spans.get(l)!.some((s) => s.x1 <= g && s.x0 >= g + w);
  let best = -1;
  let bestEnd = -1;
  let bestScore = 4;
  for (let x = Math.ceil(x0 + 0.3 * (x1 - x0)); x + w < x0 + 0.7 * (x1 - x0); x++) {
    let both = 0;
    let cross = 0;
    for (const l of lines) {
      let left = false;
      let right = false;
      let over = false;
      for (const f of l.frags) {
        if (f.x1 <= x) left = true;
        else if (f.x0 >= x + w) right = true;
        else over = true;
      }
      if (over || (left && right && parted(l, x))) cross++;
      else if (left && right) both++;
    }
    for (const a of loose) if (a.x0 < x + w && a.x1 > x) cross++;
    const score = both - 3 * cross;
    if (score > bestScore) [best, bestEnd, bestScore] = [x, x, score];
    else if (score === bestScore && bestEnd === x - 1) bestEnd = x;
  }
  if (best < 0) return false;
  const g0 = (best + bestEnd) / 2;
  const g1 = g0 + w;
  type Unit = { top: number; atoms: Atom[]; across: boolean };
  const units: Unit[] = [];
  const across = (b: Box) => b.x0 < g1 && b.x1 > g0;
  for (const l of lines) {
    const atoms = l.frags.map((f) => atomOf.get(f)!);
    if (atoms.some(across) || parted(l, g0)) units.push({ top: l.top, atoms, across: true });
    else for (const a of atoms) units.push({ top: a.top, atoms: [a], across: false });
  }
  for (const a of loose) units.push({ top: a.top, atoms: [a], across: across(a) });
  units.sort((a, b) => a.top - b.top);
  // Where each atom goes: the left or right column, or a row of its own.
  const side = new Map<Atom, 'left' | 'right'>();
  for (const u of units) if (!u.across) for (const a of u.atoms) side.set(a, a.x1 <= g0 ? 'left' : 'right');
  // Crossing rows with only short pieces between them (labels, not lines of text) are a wide
  // figure's when white bands run down all the rows they span: split at the last band that
  // leaves the left part within the left column; what reaches over the gutter is read with the
  // right column.
  const bottom = (u: Unit) => Math.max(...u.atoms.map((a) => a.bottom));
  const prose = (u: Unit) => !u.across && u.atoms.some((a) => 'frag' in a && a.frag.text.length >= 25);
  const crossing: Unit[][] = [];
  let open: Unit[] = [];
  for (const u of units) {
    if (prose(u) && open.length) {
      crossing.push(open);
      open = [];
    } else if (u.across) open.push(u);
  }
  if (open.length) crossing.push(open);
  for (const rows of crossing) {
    if (rows.length >= 2) {
      const top = rows[0]!.top;
      const end = Math.max(...rows.map(bottom));
      const band = units.filter((u) => u.top >= top && u.top <= end);
      const split = gaps(
        band.flatMap((u) => u.atoms),
        'x',
      )
        .filter(([a, b]) => b - a >= 3 && a > x0 + 0.25 * (x1 - x0) && a <= g1)
        .sort((p, q) => q[0] - p[0])[0];
      if (split)
        for (const u of band) {
          for (const a of u.atoms) side.set(a, a.x1 <= split[0] ? 'left' : 'right');
          u.across = false;
        }
    }
  }
  // Both columns must hold running text, or these are a table's or a chart's columns.
  const running = (s: string) => {
    const on = items.filter((a) => side.get(a) === s);
    return chars(on) / Math.max(1, rowsOf(on)) >= 12;
  };
  if (!running('left') || !running('right')) return false;
  let left: Atom[] = [];
  let right: Atom[] = [];
  const flush = () => {
    readColumn(left, out, depth + 1);
    readColumn(right, out, depth + 1);
    left = [];
    right = [];
  };
  for (const u of units) {
    if (!u.across) for (const a of u.atoms) (side.get(a) === 'left' ? left : right).push(a);
    else {
      flush();
      out.push(u.atoms);
    }
  }
  flush();
  return true;
}

/** The pieces' boxes, the words an OCR engine read as one line joined in one: no white band parts them. */
function ocrJoined(items: readonly Atom[]): Box[] {
  const lines = new Map<string, Box>();
  const out: Box[] = [];
  for (const a of items) {
    const id = 'frag' in a ? a.frag.ocrLine : undefined;
    if (id === undefined) {
      out.push(a);
      continue;
    }
    const b = lines.get(id);
    lines.set(id, b ? { x0: Math.min(b.x0, a.x0), x1: Math.max(b.x1, a.x1), top: b.top, bottom: b.bottom } : a);
  }
  return [...out, ...lines.values()];
}

/** Where each OCR line's words reach on a line: the right edge of its first word, the left of its last. */
function ocrSpans(line: Line): { x1: number; x0: number }[] {
  const spans = new Map<string, { x1: number; x0: number }>();
  for (const f of line.frags) {
    if (f.ocrLine === undefined) continue;
    const s = spans.get(f.ocrLine) ?? { x1: Infinity, x0: -Infinity };
    spans.set(f.ocrLine, { x1: Math.min(s.x1, f.x1), x0: Math.max(s.x0, f.x0) });
  }
  return [...spans.values()];
}

type Seq = { line: Line } | { block: Table | Figure };

function isBold(line: Line): boolean {
  let bold = 0;
  let all = 0;
  for (const f of line.frags) {
    all += f.text.length;
    if (f.font.bold) bold += f.text.length;
  }
  return all > 0 && bold / all >= 0.9;
}

/** The size most characters are set in. */
function mainSize(lines: readonly Line[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) weight.set(l.size, (weight.get(l.size) ?? 0) + l.text.length);
  let size = 0;
  let best = -1;
  for (const [k, w] of weight) if (w > best) [size, best] = [k, w];
  return size;
}

/** Lines in reading order grouped into paragraphs by spacing, indentation, size, weight and list markers. */
function paragraphs(seq: Seq[]): Block[] {
  const lines = seq.filter((s): s is { line: Line } => 'line' in s).map((s) => s.line);
  const gapsSeen: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1]!;
    const b = lines[i]!;
    const g = b.top - a.bottom;
    if (g > -2 && g < 1.5 * a.size && Math.abs(a.size - b.size) < 1 && b.x0 < a.x1 && b.x1 > a.x0)
      gapsSeen.push(Math.max(0, g));
  }
  const lineGap = gapsSeen.length ? median(gapsSeen) : 2;
  const bodySize = mainSize(lines);
  // The right edge of each line's column: the furthest right of its neighbours in the same column.
  const rightOf = new Map<Line, number>();
  const leftOf = new Map<Line, number>();
  {
    let run: Line[] = [];
    const close = () => {
      const right = Math.max(...run.map((l) => l.x1));
      const left = Math.min(...run.map((l) => l.x0));
      for (const l of run) {
        rightOf.set(l, right);
        leftOf.set(l, left);
      }
      run = [];
    };
    for (const l of lines) {
      const prev = run[run.length - 1];
      // A lone line far wider than the next (a running header over all the columns) is not of its column.
      const over = run.length === 1 && prev && prev.x1 - prev.x0 > 2.5 * (l.x1 - l.x0);
      if (
        prev &&
        (over || l.top < prev.top - 2 || l.x0 >= prev.x1 || l.x1 <= prev.x0 || l.top - prev.bottom > 3 * prev.size)
      )
        close();
      run.push(l);
    }
    if (run.length) close();
  }
  const blocks: Block[] = [];
  let cur: Para | undefined;
  const startPara = (line: Line): Para => {
    const m = listMarker(line.text);
    return {
      kind: 'para',
      role: m ? 'list' : 'body',
      level: 0,
      ordered: m?.ordered ?? false,
      marker: m?.marker ?? '',
      lines: [line],
      size: line.size,
      bold: isBold(line),
      x0: line.x0,
      x1: line.x1,
      top: line.top,
      bottom: line.bottom,
    };
  };
  const pitch = spacedPitch(
    lines,
    bodySize,
    (l) => rightOf.get(l) ?? l.x1,
    (l) => !!listMarker(l.text),
  );
  const continues = (p: Para, l: Line): boolean => {
    const prev = p.lines[p.lines.length - 1]!;
    if (l.top < prev.top + 0.3 * prev.size) return false;
    const gap = l.top - prev.bottom;
    if (gap > lineGap + Math.max(2, 0.35 * prev.size)) return false;
    if (Math.abs(l.size - p.size) > Math.max(0.8, 0.12 * p.size)) return false;
    if (l.x0 >= p.x1 || l.x1 <= p.x0) return false;
    if (listMarker(l.text)) return false;
    if (isBold(l) !== p.bold && (p.bold || l.text.length < 120)) return false;
    const em = p.size;
    const right = rightOf.get(prev) ?? prev.x1;
    if (isLeaderLine(prev.text) || isLeaderLine(l.text)) return false;
    const left = p.lines.length >= 2 ? Math.min(...p.lines.slice(1).map((x) => x.x0)) : p.lines[0]!.x0;
    // Body text whose next word would have fitted on the previous line: that line ended its
    // paragraph. Larger text (a title broken over two lines by hand) is held together by its spacing.
    if (p.size < 1.15 * bodySize && endsEarly(prev, l, right)) {
      // Unless the page spaces its paragraphs and the next line follows at the line pitch, flush
      // with the paragraph: a line break typed inside it.
      const typed =
        pitch !== undefined && p.role === 'body' && gap <= pitch + 0.25 * em && Math.abs(l.x0 - left) < 0.3 * em;
      if (!typed) return false;
      prev.brk = true;
      return true;
    }
    if (p.role === 'list') {
      // A list item goes on at the indentation of its text, not of its marker.
      return l.x0 > p.x0 + 0.3 * em || Math.abs(l.x0 - p.x0) < 0.3 * em;
    }
    // An indented first line starts a new paragraph.
    if (l.x0 > left + 0.8 * em && l.x0 > (leftOf.get(l) ?? l.x0) + 0.8 * em) return false;
    return true;
  };
  for (const s of seq) {
    if ('block' in s) {
      if (cur) blocks.push(cur);
      cur = undefined;
      blocks.push(s.block);
      continue;
    }
    const l = s.line;
    const last = cur?.lines[cur.lines.length - 1];
    if (
      cur &&
      last &&
      Math.abs(l.base - last.base) < 0.3 * last.size &&
      l.x0 >= last.x1 - 1 &&
      l.x0 - last.x1 < 12 * last.size &&
      Math.abs(l.size - last.size) < 1
    ) {
      // The rest of the same line, set apart by a tab: one line still.
      const merged = makeLine([...last.frags, ...l.frags]);
      cur.lines[cur.lines.length - 1] = merged;
      cur.x1 = Math.max(cur.x1, merged.x1);
      continue;
    }
    if (cur && continues(cur, l)) {
      cur.lines.push(l);
      cur.x0 = Math.min(cur.x0, l.x0);
      cur.x1 = Math.max(cur.x1, l.x1);
      cur.bottom = Math.max(cur.bottom, l.bottom);
      if (!isBold(l)) cur.bold = false;
    } else {
      if (cur) blocks.push(cur);
      cur = startPara(l);
    }
  }
  if (cur) blocks.push(cur);
  // Nesting of list items: by how far their markers are indented from the list's leftmost.
  let i = 0;
  while (i < blocks.length) {
    const b = blocks[i]!;
    if (b.kind !== 'para' || b.role !== 'list') {
      i++;
      continue;
    }
    let j = i;
    const items: Para[] = [];
    while (j < blocks.length && blocks[j]!.kind === 'para' && (blocks[j] as Para).role === 'list')
      items.push(blocks[j++] as Para);
    const left = Math.min(...items.map((p) => p.lines[0]!.x0));
    for (const p of items) p.level = Math.max(0, Math.min(2, Math.round((p.lines[0]!.x0 - left) / (1.5 * p.size))));
    i = j;
  }
  return blocks;
}

export interface PageInput {
  number: number;
  raw: RawPage;
  figures: Figure[];
}

/** One page's layout: tables first (their text leaves the flow), then reading order, then paragraphs. */
export function layoutPage({ number, raw, figures }: PageInput): PageLayout {
  const pageBox = { x0: 0, x1: raw.width, top: 0, bottom: raw.height };
  const frags = raw.frags;
  const tables: Table[] = [];
  const used = new Set<Frag>();
  // A chart's grid is ruled too, but a chart is drawn over with plotted lines and curves.
  const lattice = latticeTables(raw.rules, frags, pageBox).filter(
    (t) => raw.strokes.filter((p) => p.x >= t.x0 && p.x <= t.x1 && p.y >= t.top && p.y <= t.bottom).length <= 12,
  );
  for (const t of lattice) {
    tables.push(...splitRepeated(t));
    for (const f of frags) if (!used.has(f) && inBox(f, t)) used.add(f);
  }
  const free = frags.filter((f) => !used.has(f));
  const stream = streamTables(free, raw.rules, raw.strokes, raw.imageBoxes);
  for (const t of stream) {
    if (lattice.some((l) => overlaps(l, t))) continue;
    tables.push(...splitRepeated(t));
    for (const f of free) if (!used.has(f) && inBox(f, t)) used.add(f);
  }
  const text = frags.filter((f) => !used.has(f));
  const pageArea = raw.width * raw.height;
  const background = figures.filter((f) => (f.x1 - f.x0) * (f.bottom - f.top) > 0.5 * pageArea);
  const placed = figures.filter((f) => !background.includes(f));
  const atoms: Atom[] = [
    ...text.map((f) => ({ x0: f.x0, x1: f.x1, top: f.top, bottom: f.bottom, frag: f })),
    ...tables.map((t) => ({ x0: t.x0, x1: t.x1, top: t.top, bottom: t.bottom, block: t as Table | Figure })),
    ...placed.map((f) => ({ x0: f.x0, x1: f.x1, top: f.top, bottom: f.bottom, block: f as Table | Figure })),
  ];
  const leaves: Atom[][] = [];
  if (atoms.length) xyCut(atoms, leaves);
  const seq: Seq[] = [];
  for (const leaf of leaves) {
    const fr = leaf.filter((a): a is Box & { frag: Frag } => 'frag' in a).map((a) => a.frag);
    const blocks = leaf.filter((a): a is Box & { block: Table | Figure } => 'block' in a).map((a) => a.block);
    const items: (Seq & { top: number })[] = [
      ...groupLines(fr).map((line) => ({ line, top: line.top })),
      ...blocks.map((block) => ({ block, top: block.top })),
    ];
    items.sort((a, b) => a.top - b.top);
    seq.push(...items);
  }
  const blocks = [...background, ...paragraphs(seq)];
  const chars = frags.reduce((n, f) => n + f.text.trim().length, 0);
  const imageArea = figures.reduce((n, f) => n + (f.x1 - f.x0) * (f.bottom - f.top), 0);
  return {
    number,
    width: raw.width,
    height: raw.height,
    blocks,
    scanned: chars === 0 && raw.imageCount > 0 && (imageArea > 0.25 * pageArea || figures.length === 0),
    chars,
    turn: raw.turn,
  };
}

function inBox(f: Frag, b: Box): boolean {
  const cx = (f.x0 + f.x1) / 2;
  const cy = (f.top + f.bottom) / 2;
  return cx >= b.x0 - 1 && cx <= b.x1 + 1 && cy >= b.top - 1 && cy <= b.bottom + 1;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.top < b.bottom && b.top < a.bottom;
}

export { boxOf };
