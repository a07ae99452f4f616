import { cleanText } from '../layout/text.ts';
import type { FontInfo, Frag } from '../layout/types.ts';

/** Words Tesseract is less sure of than this (0–100) are specks and rulings it took for letters. */
export const minConfidence = 30;

const noFont: FontInfo = { name: '', family: '', bold: false, italic: false, mono: false };
const rtlScript = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;

interface TsvLine {
  top: number;
  bottom: number;
}

/**
 * Tesseract's TSV words as text pieces in page space (points, y down), `scale` points per pixel of the
 * rendered page. Each word takes its line's height, so the words of a line sit on one baseline and the
 * layout analysis joins them as it joins a digital line's pieces.
 */
export function tsvWords(tsv: string, scale: number): Frag[] {
  const lines = new Map<string, TsvLine>();
  const frags: Frag[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c.length < 12) continue;
    const [level, , block, par, line] = c;
    const [left, top, width, height, conf] = c.slice(6, 11).map(Number) as [number, number, number, number, number];
    const key = `${block}.${par}.${line}`;
    if (level === '4') lines.set(key, { top: top * scale, bottom: (top + height) * scale });
    if (level !== '5') continue;
    const text = cleanText(c.slice(11).join('\t').normalize('NFKC')).trim();
    if (!text || !(conf >= minConfidence)) continue;
    const box = lines.get(key) ?? { top: top * scale, bottom: (top + height) * scale };
    const size = (box.bottom - box.top) / 1.02;
    frags.push({
      text,
      x0: left * scale,
      x1: (left + width) * scale,
      top: box.top,
      bottom: box.bottom,
      base: box.bottom - 0.22 * size,
      size,
      font: noFont,
      rtl: rtlScript.test(text),
      rotated: false,
    });
  }
  return frags;
}
