import type { ToolOptions } from '@quire/catalog';
import { fail } from '@quire/base';

/** What to take off each side of a page as shown, in points. */
export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

type Options = ToolOptions<'crop-pdf'>;

const pointsPer = { mm: 72 / 25.4, pt: 1 };

/** A length in points as the visitor's unit, for messages. */
const inUnit = (points: number, unit: Options['unit']) => `${Math.round((points / pointsPer[unit]) * 10) / 10} ${unit}`;

/** The margins the options ask for on a page shown `width` × `height` points: its own sides', or around the box. */
export function askedMargins(options: Options, page: number, width: number, height: number): Margins {
  const scale = pointsPer[options.unit];
  const size = `page ${page} is ${inUnit(width, options.unit)} wide and ${inUnit(height, options.unit)} high as shown`;
  if (options.mode === 'box') {
    if (options.box === undefined) fail('invalid_option', 'The option "box" is needed when the mode is "box".');
    const [left, top, w, h] = options.box.split(',').map((n) => Number(n) * scale) as [number, number, number, number];
    if (w <= 0 || h <= 0)
      fail('invalid_option', 'The option "box" is not valid: its width and height must be more than 0.');
    // Half a point of slack: a box typed in mm to fit the page exactly rounds a little either way.
    if (left + w > width + 0.5 || top + h > height + 0.5) {
      fail('invalid_option', `The option "box" is not valid: it reaches past the page; ${size}.`);
    }
    return { left, top, right: Math.max(0, width - left - w), bottom: Math.max(0, height - top - h) };
  }
  const m = {
    top: options.top * scale,
    right: options.right * scale,
    bottom: options.bottom * scale,
    left: options.left * scale,
  };
  if (m.left + m.right >= width) fail('invalid_option', `The options "left" and "right" leave nothing: ${size}.`);
  if (m.top + m.bottom >= height) fail('invalid_option', `The options "top" and "bottom" leave nothing: ${size}.`);
  return m;
}
