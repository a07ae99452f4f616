import type { PdfPage } from '../pdfjs.ts';
import { fontsOf } from './fonts.ts';
import { mul, type Matrix } from './matrix.ts';
import { joinSideways, sidewaysPiece, type Sideways } from './sideways.ts';
import type { FontInfo, Frag } from './types.ts';

export type TextContent = Awaited<ReturnType<PdfPage['getTextContent']>>;
/** A run of text in pdf.js's text content (the other items mark content sections). */
export type TextItem = Extract<TextContent['items'][number], { str: string }>;

/** Glyph codes that fonts put in the private use area for bullets (Symbol, Wingdings). */
const bulletGlyphs = /[\uF0A7\uF0B7\uF0D8\uF076\uF0FC\uF0A8\uF06E\uF0E8\uF0D0]/g;

export function cleanText(s: string): string {
  return (
    s
      .replace(bulletGlyphs, '•')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B-\u001F\u007F\uFFFD\uFFFE\uFFFF]/g, '')
      .replace(/[\u00A0\u2000-\u200A\u202F\u3000]/g, ' ')
      .replace(/\t/g, ' ')
  );
}

/**
 * Degrees (clockwise) to turn a page whose text mostly runs up or down (a wide table printed
 * sideways) so that it reads upright; 0 for most pages.
 */
export function textTurn(page: PdfPage, content: TextContent): number {
  const base = page.getViewport({ scale: 1 }).transform as Matrix;
  let up = 0;
  let down = 0;
  let across = 0;
  for (const item of content.items) {
    if (!('str' in item) || !item.str.trim()) continue;
    const t = mul(base, item.transform as Matrix);
    const n = item.str.length;
    if (Math.abs(t[1]) > 4 * Math.abs(t[0])) {
      if (t[1] < 0) up += n;
      else down += n;
    } else across += n;
  }
  return up > 2 * (across + down) && up > 50 ? 90 : down > 2 * (across + up) && down > 50 ? 270 : 0;
}

/**
 * The page's text as pieces in page space (`transform` maps PDF space there): upright text as pdf.js
 * gives it, text at an angle joined into runs, and text printed twice on one spot once.
 */
export function textFrags(page: PdfPage, content: TextContent, transform: Matrix): Frag[] {
  const fontFor = fontsOf(page, content.styles);
  const frags: Frag[] = [];
  const sideways: Sideways[] = [];
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const text = cleanText(item.str);
    if (!text.trim()) continue;
    const t = mul(transform, item.transform as Matrix);
    const size = Math.hypot(t[2], t[3]);
    if (!(size > 0.5) || !Number.isFinite(size)) continue;
    const upright =
      Math.abs(t[1]) < 0.02 * Math.abs(t[0]) && Math.abs(t[2]) < 0.02 * Math.abs(t[3]) && t[0] > 0 && t[3] < 0;
    const font = fontFor(item.fontName);
    if (upright) frags.push(uprightFrag(item, text, t, size, font));
    else sideways.push(sidewaysPiece(item, text, t, size, font));
  }
  frags.push(...joinSideways(sideways));
  dropRepeats(frags);
  return frags;
}

/** A piece of text set left to right, `t` its text matrix in page space. */
function uprightFrag(item: TextItem, text: string, t: Matrix, size: number, font: FontInfo): Frag {
  const base = t[5];
  return {
    text,
    x0: t[4],
    x1: t[4] + Math.max(item.width, size * 0.2),
    top: base - size * 0.8,
    bottom: base + size * 0.22,
    base,
    size,
    font,
    rtl: item.dir === 'rtl',
    rotated: false,
  };
}

/** Text printed twice on the same spot (to look bold, or as an overstrike) reads once. */
function dropRepeats(frags: Frag[]): void {
  const seen = new Set<string>();
  let kept = 0;
  for (const f of frags) {
    const grid = Math.max(0.5, 0.1 * f.size);
    const key = `${f.text}|${Math.round(f.x0 / grid)}|${Math.round(f.base / grid)}|${f.rotated}`;
    if (seen.has(key)) continue;
    seen.add(key);
    frags[kept++] = f;
  }
  frags.length = kept;
}
