import type { PdfPage } from '../pdfjs.ts';
import { fontInfo } from './fonts.ts';
import { apply, type Matrix } from './matrix.ts';
import { cleanText } from './text.ts';
import type { Frag } from './types.ts';

/** The part of a pdf.js annotation a filled-in field's value is read from. */
interface Widget {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  rect?: number[];
  hidden?: boolean;
  defaultAppearanceData?: { fontSize?: number };
}

/**
 * The values of filled-in text and choice fields, as text in page space (`transform` maps PDF space
 * there): they live in widget annotations, not in the page's text.
 */
export async function formFieldFrags(page: PdfPage, transform: Matrix): Promise<Frag[]> {
  const frags: Frag[] = [];
  try {
    const annotations = (await page.getAnnotations({ intent: 'display' })) as Widget[];
    for (const a of annotations) {
      if (a.subtype !== 'Widget' || a.hidden || !a.rect || a.rect.length !== 4) continue;
      if (a.fieldType !== 'Tx' && a.fieldType !== 'Ch') continue;
      frags.push(...fieldFrags(a, a.rect, transform));
    }
  } catch {
    /* annotations are a bonus: a page whose annotations cannot be read still has its text */
  }
  return frags;
}

/** A field's value set in its box, a frag per line, in a size that fits. */
function fieldFrags(a: Widget, rect: number[], transform: Matrix): Frag[] {
  const value = Array.isArray(a.fieldValue)
    ? a.fieldValue.join(', ')
    : typeof a.fieldValue === 'string'
      ? a.fieldValue
      : '';
  const text = cleanText(value).trim();
  if (!text || text.length > 2000) return [];
  const [ax, ay] = apply(transform, rect[0]!, rect[1]!);
  const [bx, by] = apply(transform, rect[2]!, rect[3]!);
  const x0 = Math.min(ax, bx);
  const top = Math.min(ay, by);
  const bottom = Math.max(ay, by);
  const size = Math.max(
    4,
    Math.min(a.defaultAppearanceData?.fontSize || (bottom - top) * 0.7, (bottom - top) * 0.9, 24),
  );
  const base = top + (bottom - top) / 2 + size * 0.35;
  const frags: Frag[] = [];
  for (const [i, line] of text.split(/\r\n|\r|\n/).entries()) {
    if (!line.trim()) continue;
    const b = base + i * size * 1.2;
    frags.push({
      text: line,
      x0: x0 + 2,
      x1: Math.min(Math.max(ax, bx), x0 + 2 + line.length * size * 0.5),
      top: b - size * 0.8,
      bottom: b + size * 0.22,
      base: b,
      size,
      font: fontInfo('Helvetica'),
      rtl: false,
      rotated: false,
    });
  }
  return frags;
}
