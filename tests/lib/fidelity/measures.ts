/**
 * Fidelity measures for PDF extraction, shared by the fidelity tests and bench/fidelity.ts:
 * ICDAR 2013 cell adjacency for tables, character accuracy for text, paragraph F1 for Word.
 */
import { execFileSync } from 'node:child_process';
import ExcelJS from 'exceljs';

// ---------------------------------------------------------------------------------------------------
// Tables: the ICDAR 2013 structure measure.

export interface GridCell {
  sr: number;
  sc: number;
  er: number;
  ec: number;
  text: string;
}

export interface GridTable {
  page: number;
  cells: GridCell[];
}

function decodeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&amp;/g, '&');
}

/** The tables of an ICDAR 2013 *-str.xml file: one per region, cells with their spans and content. */
export function icdarTables(xml: string): GridTable[] {
  const out: GridTable[] = [];
  for (const region of xml.matchAll(/<region\b([^>]*)>([\s\S]*?)<\/region>/g)) {
    const page = Number(/page=["'](\d+)["']/.exec(region[1]!)?.[1] ?? 1);
    const cells: GridCell[] = [];
    for (const cell of region[2]!.matchAll(/<cell\b([^>]*?)\/?>(?:([\s\S]*?)<\/cell>)?/g)) {
      const attr = (name: string) => new RegExp(`${name}=["'](\\d+)["']`).exec(cell[1]!)?.[1];
      const sr = Number(attr('start-row'));
      const sc = Number(attr('start-col'));
      const er = attr('end-row') !== undefined ? Number(attr('end-row')) : sr;
      const ec = attr('end-col') !== undefined ? Number(attr('end-col')) : sc;
      const content = /<content>([\s\S]*?)<\/content>/.exec(cell[2] ?? '')?.[1] ?? '';
      cells.push({ sr, sc, er, ec, text: decodeXml(content) });
    }
    out.push({ page, cells });
  }
  return out;
}

export function normCell(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Adjacency relations between non-empty cells: each cell with its nearest non-empty neighbour to the
 * right (on every row it spans) and below (on every column it spans), as "a|b|dir" strings.
 */
export function adjacency(table: GridTable): string[] {
  const cells = table.cells.filter((c) => normCell(c.text));
  const at = new Map<string, GridCell>();
  let maxR = 0;
  let maxC = 0;
  for (const c of cells) {
    for (let r = c.sr; r <= c.er; r++) for (let k = c.sc; k <= c.ec; k++) at.set(`${r}:${k}`, c);
    maxR = Math.max(maxR, c.er);
    maxC = Math.max(maxC, c.ec);
  }
  const rel = new Set<string>();
  const out: string[] = [];
  const add = (a: GridCell, b: GridCell, dir: string) => {
    const key = `${cells.indexOf(a)}>${cells.indexOf(b)}>${dir}`;
    if (rel.has(key)) return;
    rel.add(key);
    out.push(`${normCell(a.text)}|${normCell(b.text)}|${dir}`);
  };
  for (const c of cells) {
    for (let r = c.sr; r <= c.er; r++) {
      for (let k = c.ec + 1; k <= maxC; k++) {
        const d = at.get(`${r}:${k}`);
        if (d && d !== c) {
          add(c, d, 'h');
          break;
        }
      }
    }
    for (let k = c.sc; k <= c.ec; k++) {
      for (let r = c.er + 1; r <= maxR; r++) {
        const d = at.get(`${r}:${k}`);
        if (d && d !== c) {
          add(c, d, 'v');
          break;
        }
      }
    }
  }
  return out;
}

export interface PRF {
  correct: number;
  truth: number;
  found: number;
  precision: number;
  recall: number;
  f1: number;
}

export function prf(correct: number, truth: number, found: number): PRF {
  const precision = found ? correct / found : truth ? 0 : 1;
  const recall = truth ? correct / truth : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { correct, truth, found, precision, recall, f1 };
}

/** Relations of all tables of a document, truth against found, matched as multisets. */
export function compareRelations(truth: string[], found: string[]): PRF {
  const pool = new Map<string, number>();
  for (const r of truth) pool.set(r, (pool.get(r) ?? 0) + 1);
  let correct = 0;
  for (const r of found) {
    const n = pool.get(r) ?? 0;
    if (n > 0) {
      correct++;
      pool.set(r, n - 1);
    }
  }
  return prf(correct, truth.length, found.length);
}

function multiset(items: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of items) m.set(r, (m.get(r) ?? 0) + 1);
  return m;
}

function shared(a: Map<string, number>, b: Map<string, number>): number {
  let n = 0;
  for (const [r, k] of a) n += Math.min(k, b.get(r) ?? 0);
  return n;
}

/**
 * ICDAR 2013 structure measure over one document: each found table is assigned to the truth table it
 * shares most adjacency relations with (none shared: unassigned, all its relations false positives);
 * a truth table's correct relations are those its assigned tables' relations share with it, as multisets.
 */
export function compareTables(truth: GridTable[], found: GridTable[]): PRF {
  const t = truth.map((g) => multiset(adjacency(g)));
  const f = found.map(adjacency);
  const assigned = t.map(() => [] as string[]);
  for (const rel of f) {
    const m = multiset(rel);
    let best = -1;
    let bestShared = 0;
    t.forEach((g, i) => {
      const n = shared(g, m);
      if (n > bestShared) [best, bestShared] = [i, n];
    });
    if (best >= 0) assigned[best]!.push(...rel);
  }
  const correct = t.reduce((n, g, i) => n + shared(g, multiset(assigned[i]!)), 0);
  return prf(
    correct,
    t.reduce((n, g) => n + [...g.values()].reduce((a, b) => a + b, 0), 0),
    f.reduce((n, r) => n + r.length, 0),
  );
}

function colIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** A number as a spreadsheet shows it under its format: "0.0%", "#,##0.00", "\"$\"0". */
export function displayed(value: number, format: string | undefined): string {
  if (!format || format === 'General') return String(value);
  const percent = format.includes('%');
  const decimals = /\.(0+)/.exec(format)?.[1]?.length ?? 0;
  const v = percent ? value * 100 : value;
  let body = Math.abs(v).toFixed(decimals);
  if (format.includes('#,##0')) {
    const [int, frac] = body.split('.') as [string, string?];
    body = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? `.${frac}` : '');
  }
  const currency = /^"([^"]+)"/.exec(format)?.[1] ?? '';
  return `${v < 0 ? '-' : ''}${currency}${body}${percent ? '%' : ''}`;
}

/** The tables of a pdf-to-excel result: one per sheet named "Page N table K", merges as spans. */
export async function xlsxTables(file: string): Promise<GridTable[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const out: GridTable[] = [];
  for (const ws of wb.worksheets) {
    const m = /^Page (\d+) table/.exec(ws.name);
    if (!m) continue;
    const merges = ((ws.model as { merges?: string[] }).merges ?? []).map((range) => {
      const [a, b] = range.split(':') as [string, string];
      const pa = /^([A-Z]+)(\d+)$/.exec(a)!;
      const pb = /^([A-Z]+)(\d+)$/.exec(b)!;
      return { sr: Number(pa[2]), sc: colIndex(pa[1]!), er: Number(pb[2]), ec: colIndex(pb[1]!) };
    });
    const cells: GridCell[] = [];
    ws.eachRow({ includeEmpty: false }, (row, r) => {
      row.eachCell({ includeEmpty: false }, (cell, c) => {
        if (cell.isMerged && cell.master !== cell) return;
        const span = merges.find((x) => x.sr === r && x.sc === c);
        const v = cell.value;
        const text =
          typeof v === 'number'
            ? displayed(v, cell.numFmt)
            : v === null || v === undefined
              ? ''
              : typeof v === 'object'
                ? String((v as { text?: string }).text ?? cell.text)
                : cell.text || String(v);
        cells.push({ sr: r, sc: c, er: span?.er ?? r, ec: span?.ec ?? c, text });
      });
    });
    out.push({ page: Number(m[1]), cells });
  }
  return out;
}

/** A CSV file as a grid table (no spans), for the tabula and camelot expectations. */
export function csvTable(csv: string): GridTable {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const ch = csv[i]!;
    if (quoted) {
      if (ch === '"' && csv[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && csv[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  const cells: GridCell[] = [];
  rows.forEach((r, i) => r.forEach((t, j) => cells.push({ sr: i, sc: j, er: i, ec: j, text: t })));
  return { page: 1, cells };
}

// ---------------------------------------------------------------------------------------------------
// Text: character accuracy, 1 - (Levenshtein distance / expected length), whitespace collapsed.

export function collapse(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/\u00AD/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Levenshtein distance of two strings (UTF-16 code units), exact, by Myers' bit-vector algorithm in
 * blocks of 32 rows (Hyyrö's formulation, as edlib computes it): O(n·m/32) time, O(σ·m/32) memory,
 * the shorter string as the pattern.
 */
export function levenshtein(s: string, t: string): number {
  const [p, q] = s.length <= t.length ? [s, t] : [t, s];
  const m = p.length;
  if (!m) return q.length;
  const blocks = (m + 31) >>> 5;
  // Per character of the pattern, the rows where it stands.
  const peq = new Map<number, Int32Array>();
  for (let i = 0; i < m; i++) {
    const c = p.charCodeAt(i);
    let v = peq.get(c);
    if (!v) peq.set(c, (v = new Int32Array(blocks)));
    v[i >>> 5]! |= 1 << (i & 31);
  }
  const none = new Int32Array(blocks);
  // Vertical deltas of the current column, +1 (pv) or -1 (mv) per row: column 0 is 0, 1, ..., m.
  const pv = new Int32Array(blocks).fill(-1);
  const mv = new Int32Array(blocks);
  const lastRow = 1 << ((m - 1) & 31);
  let score = m;
  for (let j = 0; j < q.length; j++) {
    const eqs = peq.get(q.charCodeAt(j)) ?? none;
    // The horizontal delta entering each block at its top: +1 on row 0 (the distance to j characters is j).
    let hin = 1;
    for (let k = 0; k < blocks; k++) {
      const pvk = pv[k]!;
      const mvk = mv[k]!;
      let eq = eqs[k]!;
      const xv = eq | mvk;
      if (hin < 0) eq |= 1;
      const xh = (((eq & pvk) + pvk) ^ pvk) | eq;
      let ph = mvk | ~(xh | pvk);
      let mh = pvk & xh;
      // Leaving the block at its last row; in the last block, at row m (the rows past it are padding).
      const bottom = k === blocks - 1 ? lastRow : 1 << 31;
      const hout = ph & bottom ? 1 : mh & bottom ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      if (hin < 0) mh |= 1;
      else if (hin > 0) ph |= 1;
      pv[k] = mh | ~(xv | ph);
      mv[k] = ph & xv;
      hin = hout;
    }
    score += hin;
  }
  return score;
}

/** Myers' O(ND) diff of two token lists: the matched pairs, in order; undefined past maxD edits. */
function matchTokens(a: string[], b: string[], maxD = 4000): [number, number][] | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const off = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(max, maxD); d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    const nv = v;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && nv[off + k - 1]! < nv[off + k + 1]!) ? nv[off + k + 1]! : nv[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      nv[off + k] = x;
      if (x >= n && y >= m) {
        // Walk back through the trace to collect the diagonal moves.
        const pairs: [number, number][] = [];
        let cx = n;
        let cy = m;
        for (let dd = d; dd > 0; dd--) {
          const t = trace[dd]!;
          const get = (kk: number) => t[kk + dd + 1]!;
          const kk = cx - cy;
          const prevK = kk === -dd || (kk !== dd && get(kk - 1) < get(kk + 1)) ? kk + 1 : kk - 1;
          const px = get(prevK);
          const py = px - prevK;
          while (cx > px && cy > py) {
            pairs.push([cx - 1, cy - 1]);
            cx--;
            cy--;
          }
          cx = px;
          cy = py;
        }
        while (cx > 0 && cy > 0) {
          pairs.push([cx - 1, cy - 1]);
          cx--;
          cy--;
        }
        return pairs.reverse();
      }
    }
    v = nv;
  }
  return undefined;
}

/**
 * Myers' diff in linear space: the middle snake of each stretch found by searching from both ends,
 * then the two halves diffed the same way (as Hirschberg divides LCS). The matched pairs of a
 * minimal diff, in order, whatever the number of edits: O((N+M)·D) time, O(N+M) memory.
 */
export function matchTokensLinear(a: string[], b: string[]): [number, number][] {
  const ids = new Map<string, number>();
  const id = (t: string) => {
    let v = ids.get(t);
    if (v === undefined) ids.set(t, (v = ids.size));
    return v;
  };
  const x = Int32Array.from(a, id);
  const y = Int32Array.from(b, id);
  const pairs: [number, number][] = [];
  const diff = (a0: number, a1: number, b0: number, b1: number): void => {
    while (a0 < a1 && b0 < b1 && x[a0] === y[b0]) pairs.push([a0++, b0++]);
    let tail = 0;
    while (a1 - tail > a0 && b1 - tail > b0 && x[a1 - tail - 1] === y[b1 - tail - 1]) tail++;
    const [e, f] = [a1 - tail, b1 - tail];
    if (e > a0 && f > b0) {
      const mid = middle(a0, e, b0, f);
      if (mid) {
        diff(a0, mid[0], b0, mid[1]);
        diff(mid[0], e, mid[1], f);
      }
    }
    for (let i = tail; i > 0; i--) pairs.push([a1 - i, b1 - i]);
  };
  // Where a minimal path through x[a0, a1) against y[b0, b1) crosses its middle edit, or undefined
  // when the two have nothing in common. Neither end is stripped of common items on entry.
  const middle = (a0: number, a1: number, b0: number, b1: number): [number, number] | undefined => {
    const n = a1 - a0;
    const m = b1 - b0;
    const maxD = Math.ceil((n + m) / 2);
    const off = maxD + 1;
    const vf = new Int32Array(2 * maxD + 3).fill(-1);
    const vb = new Int32Array(2 * maxD + 3).fill(-1);
    vf[off + 1] = 0;
    vb[off + 1] = 0;
    const delta = n - m;
    const odd = (delta & 1) !== 0;
    // Diagonals whose path already ran off the grid are skipped from then on.
    let [fStart, fEnd, bStart, bEnd] = [0, 0, 0, 0];
    for (let d = 0; d <= maxD; d++) {
      for (let k = -d + fStart; k <= d - fEnd; k += 2) {
        let i = k === -d || (k !== d && vf[off + k - 1]! < vf[off + k + 1]!) ? vf[off + k + 1]! : vf[off + k - 1]! + 1;
        let j = i - k;
        while (i < n && j < m && x[a0 + i] === y[b0 + j]) {
          i++;
          j++;
        }
        vf[off + k] = i;
        if (i > n) fEnd += 2;
        else if (j > m) fStart += 2;
        else if (odd) {
          const kb = off + delta - k;
          if (kb >= 0 && kb < vb.length && vb[kb]! !== -1 && i >= n - vb[kb]!) return [a0 + i, b0 + j];
        }
      }
      for (let k = -d + bStart; k <= d - bEnd; k += 2) {
        let i = k === -d || (k !== d && vb[off + k - 1]! < vb[off + k + 1]!) ? vb[off + k + 1]! : vb[off + k - 1]! + 1;
        let j = i - k;
        while (i < n && j < m && x[a1 - i - 1] === y[b1 - j - 1]) {
          i++;
          j++;
        }
        vb[off + k] = i;
        if (i > n) bEnd += 2;
        else if (j > m) bStart += 2;
        else if (!odd) {
          const kf = off + delta - k;
          if (kf >= 0 && kf < vf.length && vf[kf]! !== -1) {
            const fi = vf[kf]!;
            if (fi >= n - i) return [a0 + fi, b0 + fi - (kf - off)];
          }
        }
      }
    }
    return undefined;
  };
  diff(0, a.length, 0, b.length);
  return pairs;
}

/**
 * Character accuracy of `ours` against `expected` (both whitespace-collapsed): words are aligned
 * first (a minimal Myers diff), then each unmatched stretch is scored by character edit distance,
 * so every error, reordering included, counts where it stands. Up to 4,000 word edits the diff is
 * Myers' greedy one with its trace; past that, the same minimal diff in linear space.
 */
export function charAccuracy(ours: string, expected: string): number {
  const a = collapse(expected).split(' ').filter(Boolean);
  const b = collapse(ours).split(' ').filter(Boolean);
  const total = collapse(expected).length;
  if (!total) return b.length ? 0 : 1;
  const pairs = matchTokens(a, b) ?? matchTokensLinear(a, b);
  let errors = 0;
  let ia = 0;
  let ib = 0;
  for (const [x, y] of [...pairs, [a.length, b.length] as [number, number]]) {
    if (x > ia || y > ib)
      errors += levenshtein(a.slice(ia, x).join(' '), b.slice(ib, y).join(' ')) + (x > ia && y > ib ? 0 : 1);
    ia = x + 1;
    ib = y + 1;
  }
  return Math.max(0, 1 - errors / total);
}

/**
 * A layout-preserving two-column text (pdftotext -layout) in reading order: on each page the
 * columns are split at the white gutter, left column before right; lines that cross it stay whole.
 */
export function columnize(layout: string): string {
  const pages = layout.split('\f');
  return pages
    .map((page) => {
      const lines = page.split('\n');
      const width = Math.max(0, ...lines.map((l) => l.length));
      if (width < 60) return page;
      let best = -1;
      let bestScore = -Infinity;
      for (let c = Math.floor(width * 0.3); c < Math.floor(width * 0.7); c++) {
        let both = 0;
        let cross = 0;
        for (const l of lines) {
          const left = l.slice(0, c).trim();
          const right = l.slice(c + 2).trim();
          if (l.slice(c, c + 2).trim()) cross++;
          else if (left && right) both++;
        }
        const score = both - 3 * cross;
        if (score > bestScore) [best, bestScore] = [c, score];
      }
      if (best < 0 || bestScore < 5) return page;
      const out: string[] = [];
      let left: string[] = [];
      let right: string[] = [];
      const flush = () => {
        out.push(...left, ...right);
        left = [];
        right = [];
      };
      for (const l of lines) {
        if (l.slice(best, best + 2).trim()) {
          flush();
          out.push(l.trim());
        } else {
          if (l.slice(0, best).trim()) left.push(l.slice(0, best).trim());
          if (l.slice(best + 2).trim()) right.push(l.slice(best + 2).trim());
        }
      }
      flush();
      return out.join('\n');
    })
    .join('\f');
}

// ---------------------------------------------------------------------------------------------------
// Word: paragraphs, headings and tables of a DOCX, compared one to one with the source document's.

export interface DocxParagraph {
  text: string;
  style: string;
  heading: boolean;
  /** Heading level from the style's number (Heading 2 -> 2); 1 for a title, 0 for other paragraphs. */
  level: number;
  inTable: boolean;
}

export interface DocxContent {
  paragraphs: DocxParagraph[];
  tables: number;
  /** The text of each outermost table, its cells' paragraphs joined by spaces. */
  tableTexts: string[];
  /** Text boxes and frames: what a PDF import makes of each line. */
  frames: number;
}

function unzipPart(file: string, part: string): string {
  const py =
    'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nsys.stdout.write(z.read(sys.argv[2]).decode("utf-8"))';
  return execFileSync('python3', ['-c', py, file, part], { maxBuffer: 256 * 1024 * 1024 }).toString();
}

function headingLevel(style: string): number {
  if (/^Title$/i.test(style)) return 1;
  const m = /^(?:heading|berschrift|titre|t[ií]tulo)\s*(\d)$/i.exec(style.replace(/(\d)$/, ' $1'));
  return m ? Number(m[1]) : 0;
}

/** The paragraphs of a DOCX body (text boxes included, VML fallbacks not counted twice). */
export function docxContent(file: string): DocxContent {
  return docxXmlContent(unzipPart(file, 'word/document.xml'));
}

/** The same, from the XML of word/document.xml. */
export function docxXmlContent(documentXml: string): DocxContent {
  const xml = documentXml.replace(/<mc:Fallback>[\s\S]*?<\/mc:Fallback>/g, '');
  const frames = (xml.match(/<w:txbxContent\b|<w:framePr\b/g) ?? []).length;
  const tables = (xml.match(/<w:tbl>/g) ?? []).length;
  const paragraphs: DocxParagraph[] = [];
  const tableTexts: string[] = [];
  let depth = 0;
  const re = /<w:tbl>|<\/w:tbl>|<w:p\b[^>]*\/>|<w:p\b[^>]*>([\s\S]*?)<\/w:p>/g;
  for (const m of xml.matchAll(re)) {
    if (m[0] === '<w:tbl>') {
      if (depth === 0) tableTexts.push('');
      depth++;
    } else if (m[0] === '</w:tbl>') depth--;
    else if (m[1] !== undefined) {
      const body = m[1];
      // A paragraph holding a text box: its own text is the box's, counted by the inner paragraphs.
      const inner = body.replace(/<w:txbxContent>[\s\S]*?<\/w:txbxContent>/g, '');
      // A tab or a line break inside the paragraph separates words.
      const text = [...inner.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:tab\/>|<w:br\/>|<w:cr\/>/g)]
        .map((t) => (t[1] !== undefined ? decodeXml(t[1]) : ' '))
        .join('')
        .replace(/\s+/g, ' ')
        .trim();
      const style = /<w:pStyle w:val="([^"]+)"/.exec(inner)?.[1] ?? '';
      const level = headingLevel(style);
      if (text) {
        paragraphs.push({ text, style, heading: level > 0, level, inTable: depth > 0 });
        if (depth > 0) tableTexts[tableTexts.length - 1] += ` ${text}`;
      }
      for (const box of body.matchAll(/<w:txbxContent>([\s\S]*?)<\/w:txbxContent>/g)) {
        for (const p of box[1]!.matchAll(/<w:p\b[^>]*>([\s\S]*?)<\/w:p>/g)) {
          const t = [...p[1]!.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)]
            .map((x) => decodeXml(x[1]!))
            .join('')
            .replace(/\s+/g, ' ')
            .trim();
          if (t) paragraphs.push({ text: t, style: '', heading: false, level: 0, inTable: false });
        }
      }
    }
  }
  return { paragraphs, tables, tableTexts: tableTexts.map((t) => t.trim()), frames };
}

export function tokens(s: string): string[] {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export function tokenF1(a: string[], b: string[]): number {
  if (!a.length || !b.length) return 0;
  const pool = new Map<string, number>();
  for (const t of a) pool.set(t, (pool.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of b) {
    const n = pool.get(t) ?? 0;
    if (n > 0) {
      common++;
      pool.set(t, n - 1);
    }
  }
  if (!common) return 0;
  const p = common / b.length;
  const r = common / a.length;
  return (2 * p * r) / (p + r);
}

/** Token F1 at or above which a source and an output paragraph are the same paragraph. */
export const PARAGRAPH_MATCH = 0.9;

/**
 * One-to-one matching of two lists of token lists: every pair at or above `threshold` token F1,
 * taken greedily, best first (ties: the pair nearest in relative position), each item used once.
 * Pairs whose lengths alone rule out the threshold are never scored.
 */
export function matchOneToOne(a: string[][], b: string[][], threshold: number): [number, number][] {
  // F1 >= t needs the shorter list to be at least t / (2 - t) of the longer.
  const ratio = threshold / (2 - threshold);
  const byLength = b.map((t, j) => [t.length, j] as const).sort((x, y) => x[0] - y[0]);
  const pairs: { i: number; j: number; f: number; d: number }[] = [];
  for (const [i, ta] of a.entries()) {
    if (!ta.length) continue;
    const lo = Math.ceil(ta.length * ratio);
    const hi = Math.floor(ta.length / ratio);
    for (const [len, j] of byLength) {
      if (len < lo) continue;
      if (len > hi) break;
      const f = tokenF1(ta, b[j]!);
      if (f >= threshold) pairs.push({ i, j, f, d: Math.abs(i / a.length - j / b.length) });
    }
  }
  pairs.sort((x, y) => y.f - x.f || x.d - y.d);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  const out: [number, number][] = [];
  for (const p of pairs) {
    if (usedA.has(p.i) || usedB.has(p.j)) continue;
    usedA.add(p.i);
    usedB.add(p.j);
    out.push([p.i, p.j]);
  }
  return out.sort((x, y) => x[0] - y[0]);
}

export interface ParagraphScore {
  /** Paragraphs (outside tables) matched one to one at token F1 >= 0.9: P over output, R over source. */
  paragraphs: PRF;
  /** Source headings matched to an output heading, output headings that match none, source headings missed. */
  headings: { source: number; output: number; correct: number; invented: number; missed: number; sameLevel: number };
  /** Tables in the source and in the output, and those matched one to one by their text. */
  tables: { source: number; output: number; matched: number };
  frames: number;
  /**
   * Lenient figure, for comparison with older reports only: the mean over source paragraphs of the best
   * token F1 with any output paragraph (splits and invented paragraphs cost nothing).
   */
  lenientF1: number;
}

/** Token F1 at or above which a source and an output table hold the same table. */
export const TABLE_MATCH = 0.5;

export function compareParagraphs(source: DocxContent, output: DocxContent): ParagraphScore {
  const src = source.paragraphs.filter((p) => !p.inTable).map((p) => ({ ...p, tokens: tokens(p.text) }));
  const out = output.paragraphs.filter((p) => !p.inTable).map((p) => ({ ...p, tokens: tokens(p.text) }));
  const s = src.filter((p) => p.tokens.length);
  const o = out.filter((p) => p.tokens.length);
  const pairs = matchOneToOne(
    s.map((p) => p.tokens),
    o.map((p) => p.tokens),
    PARAGRAPH_MATCH,
  );
  let correct = 0;
  let sameLevel = 0;
  for (const [i, j] of pairs) {
    if (s[i]!.heading && o[j]!.heading) {
      correct++;
      if (s[i]!.level === o[j]!.level) sameLevel++;
    }
  }
  const srcHeadings = s.filter((p) => p.heading).length;
  const outHeadings = o.filter((p) => p.heading).length;
  // A source table with no text in any cell (a grid left empty to fill in later) has nothing to keep or
  // match by, and unruled it shows nothing on the page; every output table counts, empty or not.
  const sourceTables = source.tableTexts.filter((t) => tokens(t).length > 0);
  const tablePairs = matchOneToOne(sourceTables.map(tokens), output.tableTexts.map(tokens), TABLE_MATCH);
  let lenient = 0;
  for (const p of s) lenient += Math.max(0, ...o.map((q) => tokenF1(p.tokens, q.tokens)));
  return {
    paragraphs: prf(pairs.length, s.length, o.length),
    headings: {
      source: srcHeadings,
      output: outHeadings,
      correct,
      invented: outHeadings - correct,
      missed: srcHeadings - correct,
      sameLevel,
    },
    tables: { source: sourceTables.length, output: output.tableTexts.length, matched: tablePairs.length },
    frames: output.frames,
    lenientF1: s.length ? lenient / s.length : 1,
  };
}
