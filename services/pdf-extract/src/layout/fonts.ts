import type { PdfPage } from '../pdfjs.ts';
import type { FontInfo } from './types.ts';

const known: [RegExp, string][] = [
  [/^(timesnewroman|times)/i, 'Times New Roman'],
  [/^(arial|helvetica|helv)/i, 'Arial'],
  [/^(couriernew|courier)/i, 'Courier New'],
  [/^calibri/i, 'Calibri'],
  [/^cambria/i, 'Cambria'],
  [/^georgia/i, 'Georgia'],
  [/^verdana/i, 'Verdana'],
  [/^tahoma/i, 'Tahoma'],
  [/^trebuchet/i, 'Trebuchet MS'],
  [/^garamond/i, 'Garamond'],
  [/^bookantiqua/i, 'Book Antiqua'],
  [/^palatino/i, 'Palatino Linotype'],
  [/^symbol/i, 'Symbol'],
  [/^wingdings/i, 'Wingdings'],
  [/^segoeui/i, 'Segoe UI'],
  [/^consolas/i, 'Consolas'],
];

const cache = new Map<string, FontInfo>();

/**
 * What a PDF font name says about its style and family: "ABCDEF+TimesNewRomanPS-BoldItalicMT" is
 * Times New Roman, bold and italic. TeX's Computer Modern names (cmbx10, cmti10) are read too.
 */
export function fontInfo(rawName: string, flags: { bold?: boolean; italic?: boolean; black?: boolean } = {}): FontInfo {
  const key = `${rawName}|${flags.bold ? 1 : 0}${flags.italic ? 1 : 0}${flags.black ? 1 : 0}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const name = rawName.replace(/^[A-Z]{6}\+/, '');
  const lower = name.toLowerCase();
  const tex = /^(cm|lm|sf|ec|tc)[a-z]*\d*$/i.test(name.replace(/[-_].*$/, ''));
  const bold =
    Boolean(flags.bold || flags.black) ||
    /bold|black|heavy|semibold|demi|extrab|ultrab|[-,]bd\b|\bbd\b|[-,]sb\b/.test(lower) ||
    (tex && /^(cm|lm)?(bx|b)\d|^(cmbx|cmb|lmbx|sfbx)/.test(lower));
  const italic =
    Boolean(flags.italic) ||
    /italic|oblique|slant|[-,]it\b|[-,]ital|[-,]obl/.test(lower) ||
    (tex && /^(cmti|cmsl|cmmi|cmbxti|cmbxsl|lmti|sfti|sfsl)/.test(lower));
  const mono = /courier|mono|consol|cmtt|typewriter|lucidaconsole|sfti?tt/.test(lower);
  const info: FontInfo = { name, family: tex ? '' : familyOf(name), bold, italic, mono };
  cache.set(key, info);
  return info;
}

function familyOf(name: string): string {
  const stem = name
    .split(/[-,]/)[0]!
    .replace(/(PSMT|PS|MT|Std|Pro|LT)$/g, '')
    .replace(/(Bold|Italic|Oblique|Regular|Roman|Medium|Light)+$/i, '');
  if (!stem || /^(F|T|TT|C)\d/i.test(stem) || stem.length < 3) return '';
  for (const [re, family] of known) if (re.test(stem)) return family;
  // CamelCase names into words: "LiberationSerif" -> "Liberation Serif".
  const words = stem.replace(/([a-z])([A-Z])/g, '$1 $2').trim();
  return /^[A-Za-z][A-Za-z0-9 ]+$/.test(words) ? words : '';
}

/**
 * The fonts of a page's text by pdf.js's font id, read once each: the loaded font's name and flags
 * when pdf.js has it, else the family its text content names.
 */
export function fontsOf(page: PdfPage, styles: Record<string, { fontFamily?: string }>): (id: string) => FontInfo {
  const fonts = new Map<string, FontInfo>();
  return (id) => {
    let f = fonts.get(id);
    if (f) return f;
    let raw: { name?: string; bold?: boolean; italic?: boolean; black?: boolean } | undefined;
    try {
      if (page.commonObjs.has(id)) raw = page.commonObjs.get(id) as typeof raw;
    } catch {
      raw = undefined;
    }
    const style = styles[id];
    f = fontInfo(raw?.name ?? style?.fontFamily ?? '', { bold: raw?.bold, italic: raw?.italic, black: raw?.black });
    if (!raw?.name && style?.fontFamily === 'monospace') f = { ...f, mono: true };
    fonts.set(id, f);
    return f;
  };
}
