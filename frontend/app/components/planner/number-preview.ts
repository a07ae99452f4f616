import { pageLabel, type NumberFormat } from '@quire/catalog/page-labels';
import { pointsPer, type Size } from './crop-box.ts';

/** add-page-numbers' options as the preview reads them from the form's fields. */
export interface Numbering {
  position: string;
  format: NumberFormat;
  start: number;
  fontSize: number;
  margin: number;
  direction: string;
}

const formats: readonly string[] = ['number', 'page-of-total', 'roman-lower', 'roman-upper'];

/** The fields as numbering options; a field that is not a number yet previews as its default. */
export function numberingOf(values: Record<string, string | undefined>): Numbering {
  const num = (text: string | undefined, fallback: number) =>
    text !== undefined && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : fallback;
  return {
    position: values.position ?? 'bottom-center',
    format: (formats.includes(values.format ?? '') ? values.format : 'number') as NumberFormat,
    start: Math.max(1, Math.trunc(num(values.start, 1))),
    fontSize: num(values.fontSize, 11),
    margin: num(values.margin, 10),
    direction: values.direction ?? 'ltr',
  };
}

/** The label each numbered page gets, as the tool writes it: the chosen pages in order, from `start`. */
export function labelsOf(numbered: readonly number[], numbering: Numbering): Map<number, string> {
  const total = numbering.start + numbered.length - 1;
  return new Map(numbered.map((page, i) => [page, pageLabel(numbering.format, numbering.start + i, total)]));
}

/** Helvetica's height above and below the baseline, per point of font size. */
const ascent = 0.718;
const descent = 0.207;

/**
 * Where the tool writes a label on a page shown `page` points large: an SVG text's baseline start, end or
 * middle, in points from the top-left, and its size (never more than a tenth of the page's height).
 */
export function labelPlace(
  numbering: Numbering,
  page: Size,
): { x: number; y: number; anchor: 'start' | 'middle' | 'end'; size: number } {
  const size = Math.min(numbering.fontSize, page.height / 10);
  const margin = numbering.margin * pointsPer.mm;
  const [vertical, side] = numbering.position.split('-');
  // Mirrored for right-to-left documents, as the tool does.
  const across = numbering.direction === 'rtl' && side !== 'center' ? (side === 'left' ? 'right' : 'left') : side;
  const x = across === 'left' ? margin : across === 'right' ? page.width - margin : page.width / 2;
  const anchor = across === 'left' ? 'start' : across === 'right' ? 'end' : 'middle';
  const y = vertical === 'top' ? margin + ascent * size : page.height - margin - descent * size;
  return { x, y, anchor, size };
}
