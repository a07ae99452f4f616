/**
 * crop-pdf's box as the page view draws it. Like the tool (services/pdf-editor, page-view.ts), lengths are
 * measured on the page as a viewer shows it, turned, from its top-left corner: here in points, in the
 * fields in the visitor's unit.
 */

export type Unit = 'mm' | 'pt';

/** Points in one unit: 1 mm is 72/25.4 pt. */
export const pointsPer: Record<Unit, number> = { mm: 72 / 25.4, pt: 1 };

export interface Size {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** The part of a page kept, in points from the shown page's top-left corner. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

const number = /^\s*\d+(\.\d+)?\s*$/;

/** The `box` field (left, top, width, height in `unit`) in points, or undefined when it is not four numbers. */
export function rectOfBox(text: string, unit: Unit): Rect | undefined {
  const parts = text.split(',');
  if (parts.length !== 4 || !parts.every((p) => number.test(p))) return undefined;
  const [left, top, width, height] = parts.map((p) => Number(p) * pointsPer[unit]) as [number, number, number, number];
  return { left, top, width, height };
}

/** What the margins fields (in `unit`) leave of a page, in points; undefined when they are not numbers or leave nothing. */
export function rectOfMargins(
  margins: { top: string; right: string; bottom: string; left: string },
  unit: Unit,
  page: Size,
): Rect | undefined {
  const [top, right, bottom, left] = [margins.top, margins.right, margins.bottom, margins.left].map(
    (m) => (m.trim() === '' ? 0 : Number(m)) * pointsPer[unit],
  ) as [number, number, number, number];
  if (![top, right, bottom, left].every((m) => Number.isFinite(m) && m >= 0)) return undefined;
  const rect = { left, top, width: page.width - left - right, height: page.height - top - bottom };
  return rect.width > 0 && rect.height > 0 ? rect : undefined;
}

const tenths = (n: number) => Math.round(n * 10) / 10;

/**
 * The `box` field for a rectangle: tenths of the unit, never reaching past the page (the tool allows half
 * a point of slack; rounding the far edge down keeps well within it) and never empty.
 */
export function boxText(rect: Rect, unit: Unit, page: Size): string {
  const per = pointsPer[unit];
  const side = (start: number, length: number, whole: number) => {
    const from = Math.max(0, tenths(start / per));
    const room = Math.floor((whole / per - from) * 10 + 1e-6) / 10;
    return [from, Math.max(0.1, Math.min(tenths(length / per), room))] as const;
  };
  const [left, width] = side(rect.left, rect.width, page.width);
  const [top, height] = side(rect.top, rect.height, page.height);
  return [left, top, width, height].join(', ');
}

const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

/** A point of an element showing the page (its client rectangle `bounds`) in page points, kept on the page. */
export function pointOnPage(
  client: { x: number; y: number },
  bounds: { left: number; top: number; width: number; height: number },
  page: Size,
): Point {
  return {
    x: clamp(((client.x - bounds.left) / bounds.width) * page.width, 0, page.width),
    y: clamp(((client.y - bounds.top) / bounds.height) * page.height, 0, page.height),
  };
}

/** The rectangle two corners span, whichever way it was drawn. */
export function rectBetween(a: Point, b: Point): Rect {
  return { left: Math.min(a.x, b.x), top: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
}

const arrows: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/**
 * The rectangle after an arrow key: moved by `step` points, or with Shift resized (right and down grow
 * it, left and up shrink it), kept on the page and at least a step wide; undefined for any other key.
 */
export function nudged(rect: Rect, key: string, resize: boolean, step: number, page: Size): Rect | undefined {
  const arrow = arrows[key];
  if (!arrow) return undefined;
  const [dx, dy] = arrow;
  if (resize) {
    return {
      ...rect,
      width: clamp(rect.width + dx * step, Math.min(step, page.width - rect.left), page.width - rect.left),
      height: clamp(rect.height + dy * step, Math.min(step, page.height - rect.top), page.height - rect.top),
    };
  }
  return {
    ...rect,
    left: clamp(rect.left + dx * step, 0, page.width - rect.width),
    top: clamp(rect.top + dy * step, 0, page.height - rect.height),
  };
}
