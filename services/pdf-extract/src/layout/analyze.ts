import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@quire/base';
import { openDocument } from '../pdfjs.ts';
import { layoutPage } from './blocks.ts';
import { extractPage } from './extract.ts';
import type { RawPage } from './extract.ts';
import type { DocLayout, Figure, Frag, PageLayout, Para } from './types.ts';

export interface AnalyzeOptions {
  /** Keep images (as PNG files in the work directory) for the outputs that show them. */
  images: boolean;
  workdir: string;
  signal: AbortSignal;
  /** Called after each page, e.g. to render it at once and keep memory flat. */
  onPage?: (page: PageLayout, index: number) => Promise<void> | void;
  /**
   * Reads the words of scanned pages (by OCR), given their numbers; those pages are laid out again from
   * the words, after the others, and `onPage` sees them then.
   */
  readScans?: (pages: { number: number; width: number; height: number }[]) => Promise<Frag[][]>;
}

function checkAbort(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new ToolError('timeout');
}

/**
 * The layout of a whole (decrypted) PDF, one page at a time: pdf.js reads each page, its caches are
 * dropped before the next, and images go to files, so memory stays flat on long documents.
 */
export async function analyzeDocument(path: string, opts: AnalyzeOptions): Promise<DocLayout> {
  checkAbort(opts.signal);
  const doc = await openDocument(path, opts.signal);
  const onAbort = () => void doc.destroy();
  opts.signal.addEventListener('abort', onAbort, { once: true });
  const imageDir = join(opts.workdir, 'images');
  if (opts.images) await mkdir(imageDir, { recursive: true });
  const pages: PageLayout[] = [];
  const scans: { raw: RawPage; figures: Figure[] }[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      checkAbort(opts.signal);
      let layout: PageLayout;
      try {
        const page = await doc.getPage(n);
        try {
          const raw = await extractPage(page, { imageDir: opts.images ? imageDir : undefined, imagePrefix: `p${n}` });
          const figures: Figure[] = raw.images.map((im) => ({
            kind: 'image',
            x0: im.x0,
            x1: im.x1,
            top: im.top,
            bottom: im.bottom,
            file: im.file,
            pxWidth: im.pxWidth,
            pxHeight: im.pxHeight,
            background: (im.x1 - im.x0) * (im.bottom - im.top) > 0.5 * raw.width * raw.height,
          }));
          layout = layoutPage({ number: n, raw, figures });
          if (!opts.images && raw.imageCount > 0 && layout.chars === 0) layout.scanned = true;
          if (layout.scanned && opts.readScans) scans[n - 1] = { raw, figures };
        } finally {
          page.cleanup();
        }
      } catch (err) {
        checkAbort(opts.signal);
        if (err instanceof ToolError) throw err;
        // One unreadable page should not sink the document: it comes out empty.
        const view = await doc
          .getPage(n)
          .then((p) => p.getViewport({ scale: 1 }))
          .catch(() => undefined);
        layout = {
          number: n,
          width: view?.width ?? 612,
          height: view?.height ?? 792,
          blocks: [],
          scanned: false,
          chars: 0,
        };
        if (n === 1 && doc.numPages === 1) throw new ToolError('damaged_input', undefined, { cause: err });
      }
      pages.push(layout);
      if (!scans[n - 1]) await opts.onPage?.(layout, n - 1);
    }
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    await doc.destroy().catch(() => undefined);
  }
  checkAbort(opts.signal);
  if (opts.readScans) await relayScans(pages, scans, opts);
  const bodySize = classifyHeadings(pages);
  return { pages, bodySize };
}

/** Scanned pages laid out from their words as read by OCR, the scan itself no longer a figure of theirs. */
async function relayScans(
  pages: PageLayout[],
  scans: { raw: RawPage; figures: Figure[] }[],
  opts: AnalyzeOptions,
): Promise<void> {
  const scanned = pages.filter((p) => scans[p.number - 1]);
  if (!scanned.length) return;
  const words = await opts.readScans!(scanned.map(({ number, width, height }) => ({ number, width, height })));
  const numbers = scanned.map((p) => p.number);
  for (const [i, n] of numbers.entries()) {
    const { raw, figures } = scans[n - 1]!;
    const frags = words[i]!;
    // A scan OCR found no words on stays the picture it is.
    if (!frags.length) pages[n - 1]!.ocr = true;
    else {
      // The scan's own image box would read as a chart's area and keep its table out.
      const read = { ...raw, frags, imageBoxes: raw.imageBoxes.filter((b) => !covers(b, raw)) };
      const layout = layoutPage({ number: n, raw: read, figures: figures.filter((f) => !f.background) });
      pages[n - 1] = { ...layout, scanned: true, ocr: true };
    }
    await opts.onPage?.(pages[n - 1]!, n - 1);
  }
}

const covers = (b: { x0: number; x1: number; top: number; bottom: number }, page: RawPage) =>
  (b.x1 - b.x0) * (b.bottom - b.top) > 0.5 * page.width * page.height;

/**
 * Headings from font size against the body text's size (the size most characters are set in):
 * larger sizes, largest first, become levels 1–3; short bold lines at body size become the next level.
 */
export function classifyHeadings(pages: PageLayout[]): number {
  const weight = new Map<number, number>();
  const paras: Para[] = [];
  for (const p of pages) {
    for (const b of p.blocks) {
      if (b.kind !== 'para') continue;
      paras.push(b);
      const n = b.lines.reduce((s, l) => s + l.text.length, 0);
      const key = Math.round(b.size * 2) / 2;
      weight.set(key, (weight.get(key) ?? 0) + n);
    }
  }
  let body = 0;
  let best = -1;
  for (const [s, w] of weight) if (w > best) [body, best] = [s, w];
  if (!body) return 10;
  const textOf = (p: Para) => p.lines.map((l) => l.text).join(' ');
  const candidates = paras.filter((p) => {
    const t = textOf(p);
    if (p.role === 'list' || p.lines.length > 3 || t.length > 200 || t.length < 2) return false;
    if (!/\p{L}/u.test(t)) return false;
    return p.size >= body * 1.15;
  });
  const sizes = [...new Set(candidates.map((p) => Math.round(p.size)))].sort((a, b) => b - a);
  for (const p of candidates) {
    p.role = 'heading';
    p.level = Math.min(3, sizes.indexOf(Math.round(p.size)) + 1);
  }
  const boldLevel = Math.min(3, sizes.length + 1);
  for (const p of paras) {
    if (p.role !== 'body' || !p.bold || p.lines.length > 2) continue;
    const t = textOf(p);
    if (t.length > 120 || t.length < 2 || !/\p{L}/u.test(t) || /[.,;]$/.test(t)) continue;
    if (Math.abs(p.size - body) > body * 0.15) continue;
    p.role = 'heading';
    p.level = boldLevel;
  }
  return body;
}
