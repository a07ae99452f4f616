import type { Matrix } from './matrix.ts';
import type { FontInfo, Frag } from './types.ts';

/** A piece of text set at an angle: where it starts, which way it runs, and how far. */
export interface Sideways {
  frag: Frag;
  x: number;
  y: number;
  dx: number;
  dy: number;
  width: number;
}

/** A piece of text set at an angle, `t` its text matrix in page space; its frag is its bounding box. */
export function sidewaysPiece(
  item: { width: number; dir: string },
  text: string,
  t: Matrix,
  size: number,
  font: FontInfo,
): Sideways {
  const len = Math.hypot(t[0], t[1]) || 1;
  const ux = (t[0] / len) * item.width;
  const uy = (t[1] / len) * item.width;
  const vx = (t[2] / size) * size * 0.8;
  const vy = (t[3] / size) * size * 0.8;
  const xs = [t[4], t[4] + ux, t[4] + vx, t[4] + ux + vx];
  const ys = [t[5], t[5] + uy, t[5] + vy, t[5] + uy + vy];
  return {
    frag: {
      text,
      x0: Math.min(...xs),
      x1: Math.max(...xs),
      top: Math.min(...ys),
      bottom: Math.max(...ys),
      base: t[5],
      size,
      font,
      rtl: item.dir === 'rtl',
      rotated: true,
    },
    x: t[4],
    y: t[5],
    dx: t[0] / len,
    dy: t[1] / len,
    width: item.width,
  };
}

/**
 * Pieces of text set at an angle (an axis label turned upright) one after another along the same
 * line are one piece: "〈", "k", "c", "〉", " z", "-score" read as "〈kc〉 z-score".
 */
export function joinSideways(items: Sideways[]): Frag[] {
  const along = (s: Sideways) => s.x * s.dx + s.y * s.dy;
  const across = (s: Sideways) => s.y * s.dx - s.x * s.dy;
  const sorted = [...items].sort((a, b) => along(a) - along(b));
  const runs: Sideways[][] = [];
  for (const s of sorted) {
    const run = runs.find((r) => {
      const last = r[r.length - 1]!;
      const gap = along(s) - (along(last) + last.width);
      return (
        last.dx * s.dx + last.dy * s.dy > 0.99 &&
        Math.abs(across(s) - across(last)) < 0.3 * Math.max(s.frag.size, last.frag.size) &&
        gap > -0.3 * s.frag.size &&
        gap < s.frag.size
      );
    });
    if (run) run.push(s);
    else runs.push([s]);
  }
  return runs.map((run) => {
    const first = run[0]!;
    let text = first.frag.text;
    for (let i = 1; i < run.length; i++) {
      const prev = run[i - 1]!;
      const gap = along(run[i]!) - (along(prev) + prev.width);
      text += (gap > 0.1 * run[i]!.frag.size ? ' ' : '') + run[i]!.frag.text;
    }
    const frags = run.map((s) => s.frag);
    return {
      ...first.frag,
      text: text.replace(/ {2,}/g, ' '),
      x0: Math.min(...frags.map((f) => f.x0)),
      x1: Math.max(...frags.map((f) => f.x1)),
      top: Math.min(...frags.map((f) => f.top)),
      bottom: Math.max(...frags.map((f) => f.bottom)),
      size: Math.max(...frags.map((f) => f.size)),
    };
  });
}
