import { readFile, writeFile } from 'node:fs/promises';
import { pageRangesPattern, pagesOf } from '@quire/catalog';
import type { StandardFonts } from '@cantoo/pdf-lib';
import { GotenbergError } from './errors.ts';

/**
 * Gotenberg's watermarks (under the pages' content) and stamps (over it): pdfcpu's in Gotenberg,
 * drawn here by pdf-lib. Fields `{watermark,stamp}{Source,Expression,Pages,Options}`, repeated for
 * several, matched by position; image and pdf sources take the files uploaded as `watermark` or
 * `stamp`, in order.
 */
export interface Mark {
  source: 'text' | 'image' | 'pdf';
  /** The text, for a text mark. */
  text: string;
  /** The uploaded image or PDF, for the others. */
  file?: string;
  /** Page ranges; empty for every page. */
  pages: string;
  opacity: number;
  /** Degrees counter-clockwise; undefined for text along the diagonal. */
  angle?: number;
  /** Text size in points; undefined to fit the text to `scale`. */
  points?: number;
  /** Share of the page's width the mark spans. */
  scale: number;
  font: string;
  color: [number, number, number];
}

export type MarkKind = 'watermark' | 'stamp';

/** pdfcpu's standard fonts, which need nothing embedded. */
const fonts = [
  'Courier',
  'Courier-Bold',
  'Courier-Oblique',
  'Courier-BoldOblique',
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-Oblique',
  'Helvetica-BoldOblique',
  'Times-Roman',
  'Times-Bold',
  'Times-Italic',
  'Times-BoldItalic',
];

/** pdfcpu's option names (and their short forms) this server draws; any other is refused. */
const optionNames: Record<string, keyof Omit<Mark, 'source' | 'text' | 'file' | 'pages'> | 'diagonal' | 'position'> = {
  opacity: 'opacity',
  op: 'opacity',
  rotation: 'angle',
  rot: 'angle',
  diagonal: 'diagonal',
  d: 'diagonal',
  points: 'points',
  fontname: 'font',
  fillcolor: 'color',
  fillc: 'color',
  color: 'color',
  scalefactor: 'scale',
  sc: 'scale',
  position: 'position',
  pos: 'position',
};

/** The form's marks of one kind, or the problems with them, each worded as Gotenberg words a field's. */
export function readMarks(
  kind: MarkKind,
  fields: { strings: (key: string) => string[] },
  files: string[],
): { marks: Mark[]; errors: string[] } {
  const [sources, expressions, pages, options] = ['Source', 'Expression', 'Pages', 'Options'].map((f) =>
    fields.strings(`${kind}${f}`),
  ) as [string[], string[], string[], string[]];
  const errors: string[] = [];
  const marks: Mark[] = [];
  let file = 0;
  sources.forEach((source, i) => {
    if (source !== 'text' && source !== 'image' && source !== 'pdf') {
      errors.push(
        `form field '${kind}Source' is invalid (got '${source}', resulting to wrong value, expected either 'text', 'image' or 'pdf')`,
      );
      return;
    }
    const range = (pages[i] ?? '').replace(/\s+/g, '');
    if (range && !pageRangesPattern.test(range))
      errors.push(`form field '${kind}Pages' is invalid (got '${range}', resulting to not a list of page ranges)`);
    const text = expressions[i] ?? '';
    if (source === 'text' && !text.trim())
      errors.push(`form field '${kind}Expression' is invalid (got '', resulting to no text to draw)`);
    const read = readOptions(kind, options[i] ?? '', source);
    if (typeof read === 'string') return errors.push(read);
    if (source !== 'text' && file >= files.length)
      return errors.push(`a ${kind} file is required for image or pdf source`);
    marks.push({ source, text, pages: range, ...read, ...(source !== 'text' && { file: files[file++] }) });
  });
  return { marks, errors };
}

/** pdfcpu's defaults: half the page's width, opaque, text in grey Helvetica along the diagonal. */
function readOptions(
  kind: MarkKind,
  raw: string,
  source: Mark['source'],
): Omit<Mark, 'source' | 'text' | 'pages'> | string {
  const read: Omit<Mark, 'source' | 'text' | 'pages'> = {
    opacity: 1,
    scale: 0.5,
    font: 'Helvetica',
    color: [0.5, 0.5, 0.5],
    ...(source !== 'text' && { angle: 0 }),
  };
  if (!raw) return read;
  const invalid = (why: string) => `form field '${kind}Options' is invalid (got '${raw}', resulting to ${why})`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return invalid('not a JSON object');
  }
  // As Gotenberg reads it (a map of strings): a number must come quoted.
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return invalid('not a JSON object');
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof value !== 'string') return invalid(`the option '${name}' is not a string`);
    const option = optionNames[name.toLowerCase()];
    const number = Number(value.trim().split(/\s+/)[0]);
    const bad = () => invalid(`the option '${name}' has a value this server cannot draw`);
    switch (option) {
      case 'opacity':
        if (!(number >= 0 && number <= 1)) return bad();
        read.opacity = number;
        break;
      case 'angle':
        if (!(Math.abs(number) <= 360)) return bad();
        read.angle = number;
        break;
      case 'diagonal':
        // 1: lower left to upper right, pdfcpu's default for text.
        if (value.trim() !== '1') return bad();
        delete read.angle;
        break;
      case 'points':
        if (!(number > 0 && number <= 1000)) return bad();
        read.points = number;
        break;
      case 'font':
        if (!fonts.includes(value.trim())) return bad();
        read.font = value.trim();
        break;
      case 'color': {
        const color = colorOf(value);
        if (!color) return bad();
        read.color = color;
        break;
      }
      case 'scale':
        if (!(number > 0 && number <= 1) || /abs/i.test(value)) return bad();
        read.scale = number;
        break;
      case 'position':
        if (!/^(c|center|centre)$/i.test(value.trim())) return bad();
        break;
      default:
        return invalid(`the option '${name}' is not supported by this server`);
    }
  }
  return read;
}

/** `#RRGGBB`, or three shares of red, green and blue between 0 and 1. */
function colorOf(value: string): [number, number, number] | undefined {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value.trim());
  if (hex) return [1, 2, 3].map((i) => parseInt(hex[i]!, 16) / 255) as [number, number, number];
  const parts = value.trim().split(/\s+/).map(Number);
  return parts.length === 3 && parts.every((n) => n >= 0 && n <= 1) ? (parts as [number, number, number]) : undefined;
}

/**
 * Draws the marks of one kind on a PDF, into `out`: watermarks under each page's content, stamps over
 * it, on the pages each names. pdf-lib is loaded only when a form asks for marks (it is large). A mark
 * that cannot be drawn is the client's 400, worded as Gotenberg words a field's.
 */
export async function drawMarks(
  path: string,
  out: string,
  marks: Mark[],
  kind: MarkKind,
  { embedFonts = false } = {},
): Promise<void> {
  const { PDFDocument, rgb } = await import('@cantoo/pdf-lib');
  const overlay = await import('@quire/pdf/overlay');
  const fontkit = embedFonts ? (await import('@pdf-lib/fontkit')).default : undefined;
  const invalid = (field: string, why: string) =>
    new GotenbergError(400, `Invalid form data: ${field} is invalid (${why})`);
  let bytes: Uint8Array = await readFile(path);
  for (const mark of marks) {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    const pages = doc.getPages();
    let chosen: number[];
    try {
      chosen = mark.pages ? pagesOf(mark.pages, pages.length) : pages.map((_, i) => i + 1);
    } catch (err) {
      throw invalid(`form field '${kind}Pages'`, `got '${mark.pages}', resulting to ${(err as Error).message}`);
    }
    let draw: (page: (typeof pages)[number]) => void;
    if (mark.source === 'text') {
      const text = mark.text.replace(/\s+/g, ' ');
      const canDraw = await overlay.drawableCharacters(mark.font as StandardFonts);
      const bad = [...text].find((ch) => !canDraw.has(ch.codePointAt(0)!));
      if (bad !== undefined)
        throw invalid(
          `form field '${kind}Expression'`,
          `got '${text}', resulting to '${bad}', which ${mark.font} cannot draw`,
        );
      const font = fontkit
        ? (doc.registerFontkit(fontkit), await doc.embedFont(await readFile(lookalike(mark.font))))
        : await doc.embedFont(mark.font);
      const look = { text, font, opacity: mark.opacity, color: rgb(...mark.color) };
      const size = mark.points !== undefined ? { size: mark.points } : { span: mark.scale };
      const turn = mark.angle !== undefined ? { diagonal: false, angle: mark.angle } : { diagonal: true };
      draw = (page) => overlay.drawTextMark(page, { ...look, ...size, ...turn });
    } else {
      const data = await readFile(mark.file!);
      const picture = await (
        mark.source === 'pdf'
          ? doc.embedPdf(data, [0]).then(([page]) => page!)
          : data[0] === 0x89
            ? doc.embedPng(data)
            : doc.embedJpg(data)
      ).catch(() => {
        const what = mark.source === 'pdf' ? 'a PDF this server can open' : 'a PNG or JPEG image';
        throw invalid(`form file '${kind}'`, `resulting to not ${what}`);
      });
      const look = { scale: mark.scale, opacity: mark.opacity, angle: mark.angle ?? 0 };
      draw = (page) => overlay.drawPictureMark(page, picture, look);
    }
    for (const n of chosen) {
      const page = pages[n - 1]!;
      if (kind === 'watermark') overlay.underneath(page, () => draw(page));
      else draw(page);
    }
    // Without object streams: qpdf's later updates of the document information reach only plain objects.
    bytes = await doc.save({ updateFieldAppearances: false, addDefaultPage: false, useObjectStreams: false });
  }
  await writeFile(out, bytes);
}

/**
 * The Liberation font (fonts-liberation, metric-compatible) that stands for a standard font where
 * every font must be embedded, as in PDF/A.
 */
function lookalike(font: string): string {
  const family = font.startsWith('Times') ? 'Serif' : font.startsWith('Courier') ? 'Mono' : 'Sans';
  const bold = /Bold/.test(font);
  const italic = /Italic|Oblique/.test(font);
  const style = bold && italic ? 'BoldItalic' : bold ? 'Bold' : italic ? 'Italic' : 'Regular';
  return `/usr/share/fonts/truetype/liberation/Liberation${family}-${style}.ttf`;
}
