import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodePng, type RawImage } from '../png.ts';
import type { PdfPage } from '../pdfjs.ts';
import { fontInfo } from './fonts.ts';
import type { Box, FontInfo, Frag } from './types.ts';

/** An axis-aligned ruling line (or the edge of a filled box) in page space. */
export interface Rule {
  /** Horizontal: y is fixed and a..b runs along x. Vertical: x fixed, a..b along y. */
  horizontal: boolean;
  pos: number;
  a: number;
  b: number;
  width: number;
}

export interface PlacedImage extends Box {
  file: string;
  pxWidth: number;
  pxHeight: number;
}

export interface RawPage {
  width: number;
  height: number;
  frags: Frag[];
  rules: Rule[];
  /** Filled boxes (shading, cell backgrounds) that are not thin enough to be rules. */
  boxes: Box[];
  images: PlacedImage[];
  /** Images painted on the page, including those not kept. */
  imageCount: number;
  /** Where diagonal lines and curves were drawn (a chart's plot), a point each. */
  strokes: { x: number; y: number }[];
  /** Where every image was painted, kept or not. */
  imageBoxes: Box[];
  /** Degrees the page was turned (clockwise) beyond its /Rotate to set its text upright. */
  turn: number;
}

type Matrix = [number, number, number, number, number, number];

function mul(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

const ops = {
  setLineWidth: 2,
  save: 10,
  restore: 11,
  transform: 12,
  stroke: 20,
  closeStroke: 21,
  fill: 22,
  eoFill: 23,
  fillStroke: 24,
  eoFillStroke: 25,
  closeFillStroke: 26,
  closeEOFillStroke: 27,
  setStrokeRGBColor: 58,
  setFillRGBColor: 59,
  paintFormXObjectBegin: 74,
  paintFormXObjectEnd: 75,
  paintImageMaskXObject: 83,
  paintImageXObject: 85,
  paintInlineImageXObject: 86,
  paintImageXObjectRepeat: 88,
  constructPath: 91,
} as const;

const strokeOps = new Set<number>([
  ops.stroke,
  ops.closeStroke,
  ops.fillStroke,
  ops.eoFillStroke,
  ops.closeFillStroke,
  ops.closeEOFillStroke,
]);
const fillOps = new Set<number>([
  ops.fill,
  ops.eoFill,
  ops.fillStroke,
  ops.eoFillStroke,
  ops.closeFillStroke,
  ops.closeEOFillStroke,
]);

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

interface ExtractOptions {
  /** Where kept images are written; none are kept without it. */
  imageDir?: string;
  imagePrefix: string;
  /** Give up fetching one image after this long. */
  imageTimeoutMs?: number;
}

/** Text, ruling lines and images of one page, in page space (points, y down, /Rotate applied). */
export async function extractPage(page: PdfPage, opts: ExtractOptions): Promise<RawPage> {
  // The operator list first: it loads the page's fonts, whose names the text needs.
  const list = await page.getOperatorList();
  const content = await page.getTextContent();
  // A page whose text mostly runs up or down (a wide table printed sideways) is read turned upright.
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
  const turn = up > 2 * (across + down) && up > 50 ? 90 : down > 2 * (across + up) && down > 50 ? 270 : 0;
  const viewport = page.getViewport({ scale: 1, rotation: (page.rotate + turn) % 360 });
  const vt = viewport.transform as Matrix;
  const width = viewport.width;
  const height = viewport.height;
  const frags: Frag[] = [];
  const sideways: Sideways[] = [];
  const fonts = new Map<string, FontInfo>();
  const fontFor = (id: string): FontInfo => {
    let f = fonts.get(id);
    if (f) return f;
    let raw: { name?: string; bold?: boolean; italic?: boolean; black?: boolean } | undefined;
    try {
      if (page.commonObjs.has(id)) raw = page.commonObjs.get(id) as typeof raw;
    } catch {
      raw = undefined;
    }
    const style = (content.styles as Record<string, { fontFamily?: string }>)[id];
    f = fontInfo(raw?.name ?? style?.fontFamily ?? '', { bold: raw?.bold, italic: raw?.italic, black: raw?.black });
    if (!raw?.name && style?.fontFamily === 'monospace') f = { ...f, mono: true };
    fonts.set(id, f);
    return f;
  };
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const text = cleanText(item.str);
    if (!text.trim()) continue;
    const t = mul(vt, item.transform as Matrix);
    const size = Math.hypot(t[2], t[3]);
    if (!(size > 0.5) || !Number.isFinite(size)) continue;
    const upright =
      Math.abs(t[1]) < 0.02 * Math.abs(t[0]) && Math.abs(t[2]) < 0.02 * Math.abs(t[3]) && t[0] > 0 && t[3] < 0;
    const font = fontFor(item.fontName);
    if (upright) {
      const base = t[5];
      frags.push({
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
      });
    } else {
      const len = Math.hypot(t[0], t[1]) || 1;
      const ux = (t[0] / len) * item.width;
      const uy = (t[1] / len) * item.width;
      const vx = (t[2] / size) * size * 0.8;
      const vy = (t[3] / size) * size * 0.8;
      const xs = [t[4], t[4] + ux, t[4] + vx, t[4] + ux + vx];
      const ys = [t[5], t[5] + uy, t[5] + vy, t[5] + uy + vy];
      sideways.push({
        frag: {
          text,
          x0: Math.min(...xs),
          x1: Math.max(...xs),
          top: Math.min(...ys),
          bottom: Math.max(...ys),
          base: t[5],
          size,
          font,
          rtl: item.dir === 'rtl',
          rotated: true,
        },
        x: t[4],
        y: t[5],
        dx: t[0] / len,
        dy: t[1] / len,
        width: item.width,
      });
    }
  }
  frags.push(...joinSideways(sideways));
  dropRepeats(frags);

  // Filled-in form fields: their values live in widget annotations, not in the page's text.
  try {
    const annotations = (await page.getAnnotations({ intent: 'display' })) as {
      subtype?: string;
      fieldType?: string;
      fieldValue?: unknown;
      rect?: number[];
      hidden?: boolean;
      defaultAppearanceData?: { fontSize?: number };
    }[];
    for (const a of annotations) {
      if (a.subtype !== 'Widget' || a.hidden || !a.rect || a.rect.length !== 4) continue;
      if (a.fieldType !== 'Tx' && a.fieldType !== 'Ch') continue;
      const value = Array.isArray(a.fieldValue)
        ? a.fieldValue.join(', ')
        : typeof a.fieldValue === 'string'
          ? a.fieldValue
          : '';
      const text = cleanText(value).trim();
      if (!text || text.length > 2000) continue;
      const [ax, ay] = apply(vt, a.rect[0]!, a.rect[1]!);
      const [bx, by] = apply(vt, a.rect[2]!, a.rect[3]!);
      const x0 = Math.min(ax, bx);
      const top = Math.min(ay, by);
      const bottom = Math.max(ay, by);
      const size = Math.max(
        4,
        Math.min(a.defaultAppearanceData?.fontSize || (bottom - top) * 0.7, (bottom - top) * 0.9, 24),
      );
      const base = top + (bottom - top) / 2 + size * 0.35;
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
    }
  } catch {
    /* annotations are a bonus: a page whose annotations cannot be read still has its text */
  }

  const rules: Rule[] = [];
  const boxes: Box[] = [];
  const images: PlacedImage[] = [];
  let imageCount = 0;
  let ctm: Matrix = [...vt];
  let lineWidth = 1;
  let fill = '#000000';
  let stroke = '#000000';
  const stack: { ctm: Matrix; lineWidth: number; fill: string; stroke: string }[] = [];
  const pageArea = width * height;
  const pending: Promise<void>[] = [];

  const strokes: { x: number; y: number }[] = [];
  const imageBoxes: Box[] = [];
  const addSegment = (x1: number, y1: number, x2: number, y2: number, w: number) => {
    if (Math.abs(y1 - y2) > 0.5 && Math.abs(x1 - x2) > 0.5) {
      if (strokes.length < 20000) strokes.push({ x: (x1 + x2) / 2, y: (y1 + y2) / 2 });
      return;
    }
    if (Math.abs(y1 - y2) <= 0.5 && Math.abs(x1 - x2) > 1) {
      rules.push({ horizontal: true, pos: (y1 + y2) / 2, a: Math.min(x1, x2), b: Math.max(x1, x2), width: w });
    } else if (Math.abs(x1 - x2) <= 0.5 && Math.abs(y1 - y2) > 1) {
      rules.push({ horizontal: false, pos: (x1 + x2) / 2, a: Math.min(y1, y2), b: Math.max(y1, y2), width: w });
    }
  };

  const addRect = (xs: number[], ys: number[]) => {
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    const y0 = Math.min(...ys);
    const y1 = Math.max(...ys);
    const w = x1 - x0;
    const h = y1 - y0;
    if (h <= 3 && w > 1) rules.push({ horizontal: true, pos: (y0 + y1) / 2, a: x0, b: x1, width: h });
    else if (w <= 3 && h > 1) rules.push({ horizontal: false, pos: (x0 + x1) / 2, a: y0, b: y1, width: w });
    else if (w > 3 && h > 3 && w * h < pageArea * 0.5) boxes.push({ x0, x1, top: y0, bottom: y1 });
  };

  const path = (op: number, data: ArrayLike<number> | undefined) => {
    if (!data) return;
    const doStroke = strokeOps.has(op) && !isWhite(stroke);
    const doFill = fillOps.has(op) && !isWhite(fill);
    if (!doStroke && !doFill) return;
    const scale = Math.sqrt(Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2])) || 1;
    const w = lineWidth * scale;
    let xs: number[] = [];
    let ys: number[] = [];
    let curves = false;
    const flush = (closed: boolean) => {
      if (xs.length >= 2) {
        if (doStroke && curves && strokes.length < 20000) strokes.push({ x: xs[0]!, y: ys[0]! });
        if (doStroke && w <= 4) {
          for (let i = 1; i < xs.length; i++) addSegment(xs[i - 1]!, ys[i - 1]!, xs[i]!, ys[i]!, w);
          if (closed) addSegment(xs[xs.length - 1]!, ys[ys.length - 1]!, xs[0]!, ys[0]!, w);
        }
        if (doFill && !curves && isAxisRect(xs, ys)) addRect(xs, ys);
        else if (doFill && (curves || xs.length > 5)) {
          // A filled shape that is no box: a plotted line or area, or a pie slice.
          for (let i = 0; i < xs.length && strokes.length < 20000; i += 2) strokes.push({ x: xs[i]!, y: ys[i]! });
        } else if (doStroke && w > 4 && !curves && isAxisRect(xs, ys)) addRect(xs, ys);
      }
      xs = [];
      ys = [];
      curves = false;
    };
    for (let i = 0; i < data.length;) {
      const code = data[i++];
      if (code === 0) {
        flush(false);
        const [x, y] = apply(ctm, data[i++]!, data[i++]!);
        xs.push(x);
        ys.push(y);
      } else if (code === 1) {
        const [x, y] = apply(ctm, data[i++]!, data[i++]!);
        xs.push(x);
        ys.push(y);
      } else if (code === 2) {
        i += 4;
        const [x, y] = apply(ctm, data[i++]!, data[i++]!);
        xs.push(x);
        ys.push(y);
        curves = true;
      } else if (code === 3) {
        i += 2;
        const [x, y] = apply(ctm, data[i++]!, data[i++]!);
        xs.push(x);
        ys.push(y);
        curves = true;
      } else if (code === 4) {
        flush(true);
      } else break;
    }
    flush(false);
  };

  const placeImage = (fetch: () => Promise<RawImage | undefined>) => {
    imageCount++;
    const corners = [apply(ctm, 0, 0), apply(ctm, 1, 0), apply(ctm, 0, 1), apply(ctm, 1, 1)];
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    const box = {
      x0: Math.max(0, Math.min(...xs)),
      x1: Math.min(width, Math.max(...xs)),
      top: Math.max(0, Math.min(...ys)),
      bottom: Math.min(height, Math.max(...ys)),
    };
    if (imageBoxes.length < 1000 && (box.x1 - box.x0) * (box.bottom - box.top) < 0.9 * pageArea) imageBoxes.push(box);
    if (!opts.imageDir || box.x1 - box.x0 < 4 || box.bottom - box.top < 4) return;
    if (images.length + pending.length >= 200) return;
    const index = imageCount;
    pending.push(
      (async () => {
        const raw = await fetch();
        if (!raw) return;
        const png = encodePng(raw);
        if (!png) return;
        const file = join(opts.imageDir!, `${opts.imagePrefix}-${index}.png`);
        await writeFile(file, png);
        images.push({ ...box, file, pxWidth: png.readUInt32BE(16), pxHeight: png.readUInt32BE(20) });
      })(),
    );
  };

  const objFor = (id: string): Promise<RawImage | undefined> => {
    const objs = id.startsWith('g_') ? page.commonObjs : page.objs;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), opts.imageTimeoutMs ?? 5000);
      try {
        objs.get(id, (value: unknown) => {
          clearTimeout(timer);
          resolve(asRawImage(value));
        });
      } catch {
        clearTimeout(timer);
        resolve(undefined);
      }
    });
  };

  const { fnArray, argsArray } = list;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    switch (fn) {
      case ops.save:
        stack.push({ ctm, lineWidth, fill, stroke });
        break;
      case ops.restore: {
        const s = stack.pop();
        if (s) ({ ctm, lineWidth, fill, stroke } = s);
        break;
      }
      case ops.transform:
        ctm = mul(ctm, args as unknown as Matrix);
        break;
      case ops.paintFormXObjectBegin: {
        stack.push({ ctm, lineWidth, fill, stroke });
        const m = args?.[0] as Matrix | null | undefined;
        if (m && m.length === 6) ctm = mul(ctm, m);
        break;
      }
      case ops.paintFormXObjectEnd: {
        const s = stack.pop();
        if (s) ({ ctm, lineWidth, fill, stroke } = s);
        break;
      }
      case ops.setLineWidth:
        lineWidth = Number(args?.[0]) || 0;
        break;
      case ops.setFillRGBColor:
        fill = String(args?.[0] ?? '#000000');
        break;
      case ops.setStrokeRGBColor:
        stroke = String(args?.[0] ?? '#000000');
        break;
      case ops.constructPath: {
        const op = Number(args?.[0]);
        const data = (args?.[1] as unknown[] | undefined)?.[0] as ArrayLike<number> | undefined;
        path(op, data);
        break;
      }
      case ops.paintImageXObject: {
        const id = String(args?.[0]);
        placeImage(() => objFor(id));
        break;
      }
      case ops.paintInlineImageXObject: {
        const img = asRawImage(args?.[0]);
        placeImage(async () => img);
        break;
      }
      case ops.paintImageMaskXObject:
      case ops.paintImageXObjectRepeat:
        imageCount++;
        break;
    }
  }
  await Promise.all(pending);
  images.sort((a, b) => a.top - b.top || a.x0 - b.x0);
  return { width, height, frags, rules, boxes, images, imageCount, strokes, imageBoxes, turn };
}

/** A piece of text set at an angle: where it starts, which way it runs, and how far. */
interface Sideways {
  frag: Frag;
  x: number;
  y: number;
  dx: number;
  dy: number;
  width: number;
}

/**
 * Pieces of text set at an angle (an axis label turned upright) one after another along the same
 * line are one piece: "〈", "k", "c", "〉", " z", "-score" read as "〈kc〉 z-score".
 */
function joinSideways(items: Sideways[]): Frag[] {
  const along = (s: Sideways) => s.x * s.dx + s.y * s.dy;
  const across = (s: Sideways) => s.y * s.dx - s.x * s.dy;
  const sorted = [...items].sort((a, b) => along(a) - along(b));
  const runs: Sideways[][] = [];
  for (const s of sorted) {
    const run = runs.find((r) => {
      const last = r[r.length - 1]!;
      const gap = along(s) - (along(last) + last.width);
      return (
        last.dx * s.dx + last.dy * s.dy > 0.99 &&
        Math.abs(across(s) - across(last)) < 0.3 * Math.max(s.frag.size, last.frag.size) &&
        gap > -0.3 * s.frag.size &&
        gap < s.frag.size
      );
    });
    if (run) run.push(s);
    else runs.push([s]);
  }
  return runs.map((run) => {
    const first = run[0]!;
    let text = first.frag.text;
    for (let i = 1; i < run.length; i++) {
      const prev = run[i - 1]!;
      const gap = along(run[i]!) - (along(prev) + prev.width);
      text += (gap > 0.1 * run[i]!.frag.size ? ' ' : '') + run[i]!.frag.text;
    }
    const frags = run.map((s) => s.frag);
    return {
      ...first.frag,
      text: text.replace(/ {2,}/g, ' '),
      x0: Math.min(...frags.map((f) => f.x0)),
      x1: Math.max(...frags.map((f) => f.x1)),
      top: Math.min(...frags.map((f) => f.top)),
      bottom: Math.max(...frags.map((f) => f.bottom)),
      size: Math.max(...frags.map((f) => f.size)),
    };
  });
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

function isWhite(color: string): boolean {
  return /^#(f[a-f0-9]){3}$/i.test(color);
}

function isAxisRect(xs: number[], ys: number[]): boolean {
  let n = xs.length;
  if (n === 5 && Math.abs(xs[0]! - xs[4]!) < 0.5 && Math.abs(ys[0]! - ys[4]!) < 0.5) n = 4;
  if (n !== 4) return false;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    const dx = Math.abs(xs[i]! - xs[j]!);
    const dy = Math.abs(ys[i]! - ys[j]!);
    if (dx > 0.5 && dy > 0.5) return false;
  }
  return true;
}

function asRawImage(value: unknown): RawImage | undefined {
  const v = value as Partial<RawImage> | null | undefined;
  if (!v || typeof v.width !== 'number' || typeof v.height !== 'number' || !v.data || typeof v.kind !== 'number')
    return undefined;
  return { width: v.width, height: v.height, kind: v.kind, data: v.data };
}
