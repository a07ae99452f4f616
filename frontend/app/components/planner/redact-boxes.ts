import type { RedactionBox } from '@quire/catalog/redaction';
import type { Rect, Size } from './crop-box.ts';

/**
 * redact-pdf's `boxes` field as the page view draws it: a JSON list of boxes in fractions of the page as a
 * viewer shows it, from its top-left corner (the tool's measure, whatever the page's size), drawn in
 * points like crop-pdf's box (crop-box.ts).
 */

/** The boxes the field holds; what is not a list of boxes (being typed, say) holds none. */
export function boxesOf(text: string): RedactionBox[] {
  try {
    const parsed = JSON.parse(text || '[]') as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (b): b is RedactionBox =>
        typeof b === 'object' &&
        b !== null &&
        ['page', 'x', 'y', 'width', 'height'].every((k) => typeof (b as Record<string, unknown>)[k] === 'number'),
    );
  } catch {
    return [];
  }
}

/** The field's text for these boxes: empty when there are none, so that the option counts as not given. */
export function boxesText(boxes: readonly RedactionBox[]): string {
  return boxes.length ? JSON.stringify(boxes) : '';
}

const thousandths = (n: number) => Math.round(n * 1000) / 1000;

/** A rectangle in points on a page as a box of the field: fractions in thousandths, kept on the page. */
export function boxOfRect(page: number, rect: Rect, size: Size): RedactionBox {
  const x = Math.max(0, thousandths(rect.left / size.width));
  const y = Math.max(0, thousandths(rect.top / size.height));
  return {
    page,
    x,
    y,
    width: Math.max(0.001, Math.min(thousandths(rect.width / size.width), Math.floor((1 - x) * 1000) / 1000)),
    height: Math.max(0.001, Math.min(thousandths(rect.height / size.height), Math.floor((1 - y) * 1000) / 1000)),
  };
}

/** A box of the field in points on its page. */
export function rectOfBox(box: RedactionBox, size: Size): Rect {
  return {
    left: box.x * size.width,
    top: box.y * size.height,
    width: box.width * size.width,
    height: box.height * size.height,
  };
}

/** A new box for the keyboard: a fifth of the page wide and a twentieth high, in its middle. */
export function middleBox(page: number): RedactionBox {
  return { page, x: 0.4, y: 0.475, width: 0.2, height: 0.05 };
}
