import { cleanText } from '../layout/text.ts';
import type { FontInfo, Frag } from '../layout/types.ts';

/**
 * Words Tesseract is less sure of than this (0–100) may be specks and rulings it took for letters: they
 * are kept only with a letter or digit in them, on a line of more words it is sure of than not. Tesseract
 * gives real words of a clear line a low confidence at times (its last words, on a noisy scan), and the
 * marks in a figure lines of their own that it is mostly unsure of.
 */
export const minConfidence = 30;

const noFont: FontInfo = { name: '', family: '', bold: false, italic: false, mono: false };
const rtlScript = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;

/** A word as Tesseract boxed it, in points (y down), and the line it put it on. */
interface Word {
  text: string;
  line: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Tesseract's TSV words as text pieces in page space (points, y down), `scale` points per pixel of the
 * rendered page. A scan is seldom square on the page: the words are turned back by the page's skew,
 * measured on Tesseract's own lines, so that a line's words sit level and neighbouring lines (of the same
 * column or the next) do not run into each other. Each word then takes its line's height, so the words of
 * a line sit on one baseline and the layout analysis joins them as it joins a digital line's pieces.
 */
export function tsvWords(tsv: string, scale: number): Frag[] {
  const read: (Word & { sure: boolean })[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const [left, top, width, height, conf] = c.slice(6, 11).map(Number) as [number, number, number, number, number];
    const text = cleanText(c.slice(11).join('\t').normalize('NFKC')).trim();
    if (!text) continue;
    const line = `${c[2]}.${c[3]}.${c[4]}`;
    read.push({
      sure: conf >= minConfidence,
      text,
      line,
      x: (left + width / 2) * scale,
      y: (top + height / 2) * scale,
      width: width * scale,
      height: height * scale,
    });
  }
  // Each line's words Tesseract is sure of, less those it is not.
  const balance = new Map<string, number>();
  for (const w of read) balance.set(w.line, (balance.get(w.line) ?? 0) + (w.sure ? 1 : -1));
  const words: Word[] = read.filter((w) => w.sure || (balance.get(w.line)! > 0 && /[\p{L}\p{N}]/u.test(w.text)));
  const level = leveller(words);
  const lines = new Map<string, { top: number; bottom: number }>();
  const placed = words.map((w) => {
    const [x, y] = level(w.x, w.y);
    const box = lines.get(w.line) ?? { top: Infinity, bottom: -Infinity };
    box.top = Math.min(box.top, y - w.height / 2);
    box.bottom = Math.max(box.bottom, y + w.height / 2);
    lines.set(w.line, box);
    return { ...w, x, y };
  });
  return placed.map((w) => {
    const box = lines.get(w.line)!;
    const size = (box.bottom - box.top) / 1.02;
    return {
      text: w.text,
      x0: w.x - w.width / 2,
      x1: w.x + w.width / 2,
      top: box.top,
      bottom: box.bottom,
      base: box.bottom - 0.22 * size,
      size,
      font: noFont,
      rtl: rtlScript.test(w.text),
      rotated: false,
      ocrLine: w.line,
    };
  });
}

/** Skews below this (about 0.2°) move a word less than a line's gap across a page: left as they are. */
const leastSlope = 0.0035;
/** Beyond this (about 10°) the lines are not a scan's small turn. */
const mostSlope = 0.18;

/**
 * A turn about the words' centre that makes the page's lines level: the median slope of Tesseract's lines
 * of three words or more, each fitted through its words' centres by least squares.
 */
function leveller(words: readonly Word[]): (x: number, y: number) => [number, number] {
  const byLine = new Map<string, Word[]>();
  for (const w of words) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  const slopes: number[] = [];
  for (const line of byLine.values()) {
    if (line.length < 3) continue;
    const mx = line.reduce((s, w) => s + w.x, 0) / line.length;
    const my = line.reduce((s, w) => s + w.y, 0) / line.length;
    const sxx = line.reduce((s, w) => s + (w.x - mx) ** 2, 0);
    if (sxx > 0) slopes.push(line.reduce((s, w) => s + (w.x - mx) * (w.y - my), 0) / sxx);
  }
  slopes.sort((a, b) => a - b);
  const slope = slopes.length ? slopes[Math.floor(slopes.length / 2)]! : 0;
  if (Math.abs(slope) < leastSlope || Math.abs(slope) > mostSlope) return (x, y) => [x, y];
  const angle = Math.atan(slope);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const cx = words.reduce((s, w) => s + w.x, 0) / words.length;
  const cy = words.reduce((s, w) => s + w.y, 0) / words.length;
  return (x, y) => [cx + (x - cx) * cos + (y - cy) * sin, cy - (x - cx) * sin + (y - cy) * cos];
}
