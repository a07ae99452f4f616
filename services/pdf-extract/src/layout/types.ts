/** The layout model every output is written from: pages of blocks in reading order. */

export interface FontInfo {
  /** The PDF's font name without the subset tag, e.g. "TimesNewRomanPS-BoldMT". */
  name: string;
  /** A family an office program knows, e.g. "Times New Roman"; '' when unknown. */
  family: string;
  bold: boolean;
  italic: boolean;
  mono: boolean;
}

/** A piece of text as pdf.js gives it, in page space: points, origin top left, y down. */
export interface Frag {
  text: string;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  base: number;
  size: number;
  font: FontInfo;
  rtl: boolean;
  /** Text that does not run left to right on the page (rotated or vertical writing). */
  rotated: boolean;
  /** The line an OCR engine read the word in: no column cut parts it from that line's other words. */
  ocrLine?: string;
}

export interface Box {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

export interface Line extends Box {
  /** Its fragments in reading order; empty once the page is laid out and its runs are kept (`spans`). */
  frags: Frag[];
  /** Its styled runs, as lineSpans makes them: set when its fragments are let go. */
  spans?: Span[];
  base: number;
  /** The dominant font size. */
  size: number;
  text: string;
  /** A hyphen ending the line: 'split' a word the typesetter broke, 'keep' one that belongs to the text. */
  hyphen?: 'split' | 'keep';
  /** A line break typed inside the paragraph ends the line: the next line starts a new line in it too. */
  brk?: boolean;
}

/** A run of text in one style, what the writers emit. */
export interface Span {
  text: string;
  bold: boolean;
  italic: boolean;
  size: number;
  family: string;
}

export interface Para extends Box {
  kind: 'para';
  role: 'body' | 'heading' | 'list';
  /** Heading level 1–3, or list nesting depth from 0. */
  level: number;
  ordered: boolean;
  /** The list marker as printed ("•", "3.", "a)"), removed from the lines' text. */
  marker: string;
  lines: Line[];
  size: number;
  bold: boolean;
  /**
   * A heading that heads no section, kept out of the document's outline as a word processor keeps it:
   * a title page's title or subtitle, or the title over a table of contents (see titles.ts).
   */
  titling?: 'title' | 'subtitle' | 'contents';
  /** A running header or footer, repeated from page to page. */
  furniture?: boolean;
  /** It goes on from the last paragraph of the page before, which a page break cut. */
  continues?: boolean;
}

export interface Cell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  lines: Line[];
  text: string;
}

export interface Table extends Box {
  kind: 'table';
  rows: number;
  cols: number;
  /** Only the cells that start a span; covered positions have no cell. */
  cells: Cell[];
  ruled: boolean;
  colX: number[];
  rowY: number[];
  /** It goes on from the table that ended the page before, which a page break cut. */
  continues?: boolean;
}

export interface Figure extends Box {
  kind: 'image';
  /** A PNG in the job's work directory. */
  file: string;
  pxWidth: number;
  pxHeight: number;
  /** Covers most of the page (a scan or a background). */
  background: boolean;
}

export type Block = Para | Table | Figure;

export interface PageLayout {
  number: number;
  width: number;
  height: number;
  blocks: Block[];
  /** No text at all but images: a scan. */
  scanned: boolean;
  /** Its text was read by OCR. */
  ocr?: boolean;
  chars: number;
  /** Degrees the page was turned (clockwise) to read text printed sideways; 0 for most pages. */
  turn?: number;
}

export interface DocLayout {
  pages: PageLayout[];
  bodySize: number;
}

/** The box a table's column and row edges enclose. */
export function gridBox(colX: readonly number[], rowY: readonly number[]): Box {
  return { x0: colX[0]!, x1: colX[colX.length - 1]!, top: rowY[0]!, bottom: rowY[rowY.length - 1]! };
}

export function boxOf(items: readonly Box[]): Box {
  let x0 = Infinity;
  let x1 = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  for (const b of items) {
    if (b.x0 < x0) x0 = b.x0;
    if (b.x1 > x1) x1 = b.x1;
    if (b.top < top) top = b.top;
    if (b.bottom > bottom) bottom = b.bottom;
  }
  return { x0, x1, top, bottom };
}

export function median(values: readonly number[]): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
