import { fillOps, strokeOps, type GraphicsState } from './graphics.ts';
import { apply, type Matrix } from './matrix.ts';
import type { Box } from './types.ts';

/** An axis-aligned ruling line (or the edge of a filled box) in page space. */
export interface Rule {
  /** Horizontal: y is fixed and a..b runs along x. Vertical: x fixed, a..b along y. */
  horizontal: boolean;
  pos: number;
  a: number;
  b: number;
  width: number;
}

export interface Point {
  x: number;
  y: number;
}

/** Stroke points kept per page: enough to tell a chart, bounded on a page of hatching. */
const maxStrokes = 20000;

/** One run of a path from a move to the next move or close, in page space. */
interface Subpath {
  xs: number[];
  ys: number[];
  /** Drawn with a Bézier curve somewhere. */
  curves: boolean;
  closed: boolean;
}

/** What a page's paths draw: ruling lines, filled boxes, and points along its diagonals and curves. */
export class Shapes {
  readonly rules: Rule[] = [];
  /** Filled boxes (shading, cell backgrounds) that are not thin enough to be rules. */
  readonly boxes: Box[] = [];
  /** Where diagonal lines and curves were drawn (a chart's plot), a point each. */
  readonly strokes: Point[] = [];

  constructor(private readonly pageArea: number) {}

  /** A path painted by `op` (stroke, fill or both) in the state `g`; white paint is not seen. */
  paint(op: number, data: ArrayLike<number> | undefined, g: GraphicsState): void {
    if (!data) return;
    const doStroke = strokeOps.has(op) && !isWhite(g.stroke);
    const doFill = fillOps.has(op) && !isWhite(g.fill);
    if (!doStroke && !doFill) return;
    const scale = Math.sqrt(Math.abs(g.ctm[0] * g.ctm[3] - g.ctm[1] * g.ctm[2])) || 1;
    const w = g.lineWidth * scale;
    for (const { xs, ys, curves, closed } of subpaths(data, g.ctm)) {
      if (doStroke && curves && this.strokes.length < maxStrokes) this.strokes.push({ x: xs[0]!, y: ys[0]! });
      if (doStroke && w <= 4) {
        for (let i = 1; i < xs.length; i++) this.segment(xs[i - 1]!, ys[i - 1]!, xs[i]!, ys[i]!, w);
        if (closed) this.segment(xs[xs.length - 1]!, ys[ys.length - 1]!, xs[0]!, ys[0]!, w);
      }
      if (doFill && !curves && isAxisRect(xs, ys)) this.rect(xs, ys);
      else if (doFill && (curves || xs.length > 5)) {
        // A filled shape that is no box: a plotted line or area, or a pie slice.
        for (let i = 0; i < xs.length && this.strokes.length < maxStrokes; i += 2) {
          this.strokes.push({ x: xs[i]!, y: ys[i]! });
        }
      } else if (doStroke && w > 4 && !curves && isAxisRect(xs, ys)) this.rect(xs, ys);
    }
  }

  /** A stroked line: a rule when it runs along an axis, a stroke point when diagonal. */
  private segment(x1: number, y1: number, x2: number, y2: number, w: number): void {
    if (Math.abs(y1 - y2) > 0.5 && Math.abs(x1 - x2) > 0.5) {
      if (this.strokes.length < maxStrokes) this.strokes.push({ x: (x1 + x2) / 2, y: (y1 + y2) / 2 });
      return;
    }
    if (Math.abs(y1 - y2) <= 0.5 && Math.abs(x1 - x2) > 1) {
      this.rules.push({ horizontal: true, pos: (y1 + y2) / 2, a: Math.min(x1, x2), b: Math.max(x1, x2), width: w });
    } else if (Math.abs(x1 - x2) <= 0.5 && Math.abs(y1 - y2) > 1) {
      this.rules.push({ horizontal: false, pos: (x1 + x2) / 2, a: Math.min(y1, y2), b: Math.max(y1, y2), width: w });
    }
  }

  /** A filled rectangle: a rule when thin, a box when not (a page-sized one is the background). */
  private rect(xs: number[], ys: number[]): void {
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    const y0 = Math.min(...ys);
    const y1 = Math.max(...ys);
    const w = x1 - x0;
    const h = y1 - y0;
    if (h <= 3 && w > 1) this.rules.push({ horizontal: true, pos: (y0 + y1) / 2, a: x0, b: x1, width: h });
    else if (w <= 3 && h > 1) this.rules.push({ horizontal: false, pos: (x0 + x1) / 2, a: y0, b: y1, width: w });
    else if (w > 3 && h > 3 && w * h < this.pageArea * 0.5) this.boxes.push({ x0, x1, top: y0, bottom: y1 });
  }
}

/**
 * A constructPath operator's data (pdf.js's codes: 0 move, 1 line, 2 and 3 curves, 4 close) as
 * subpaths of two points or more; a code it does not know ends the path.
 */
function subpaths(data: ArrayLike<number>, ctm: Matrix): Subpath[] {
  const out: Subpath[] = [];
  let xs: number[] = [];
  let ys: number[] = [];
  let curves = false;
  const end = (closed: boolean) => {
    if (xs.length >= 2) out.push({ xs, ys, curves, closed });
    xs = [];
    ys = [];
    curves = false;
  };
  const point = (i: number) => {
    const [x, y] = apply(ctm, data[i]!, data[i + 1]!);
    xs.push(x);
    ys.push(y);
  };
  for (let i = 0; i < data.length;) {
    const code = data[i++];
    if (code === 0) {
      end(false);
      point(i);
      i += 2;
    } else if (code === 1) {
      point(i);
      i += 2;
    } else if (code === 2) {
      point(i + 4);
      i += 6;
      curves = true;
    } else if (code === 3) {
      point(i + 2);
      i += 4;
      curves = true;
    } else if (code === 4) {
      end(true);
    } else break;
  }
  end(false);
  return out;
}

function isWhite(color: string): boolean {
  return /^#(f[a-f0-9]){3}$/i.test(color);
}

function isAxisRect(xs: number[], ys: number[]): boolean {
  let n = xs.length;
  if (n === 5 && Math.abs(xs[0]! - xs[4]!) < 0.5 && Math.abs(ys[0]! - ys[4]!) < 0.5) n = 4;
  if (n !== 4) return false;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    const dx = Math.abs(xs[i]! - xs[j]!);
    const dy = Math.abs(ys[i]! - ys[j]!);
    if (dx > 0.5 && dy > 0.5) return false;
  }
  return true;
}
