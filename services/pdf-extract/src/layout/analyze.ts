import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@quire/base';
import { openDocument, type PdfDocument } from '../pdfjs.ts';
import { layoutPage } from './blocks.ts';
import { extractPage } from './extract.ts';
import { isLeaderLine, markContinuations, markFurniture, markHyphens } from './flow.ts';
import { markTableContinuations } from './table-runs.ts';
import { settleLine } from './lines.ts';
import { markTitles } from './titles.ts';
import type { RawPage } from './extract.ts';
import type { ImageOptions } from './images.ts';
import { median, type DocLayout, type Figure, type Frag, type Line, type PageLayout, type Para } from './types.ts';

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
  /** Waits, once the page count is known, until the document may be laid out (see page-budget.ts). */
  admit?: (pages: number) => Promise<void>;
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
  try {
    await opts.admit?.(doc.numPages);
  } catch (err) {
    opts.signal.removeEventListener('abort', onAbort);
    await doc.destroy().catch(() => undefined);
    throw err;
  }
  const imageDir = join(opts.workdir, 'images');
  if (opts.images) await mkdir(imageDir, { recursive: true });
  const pages: PageLayout[] = [];
  const scans: { raw: RawPage; figures: Figure[] }[] = [];
  const imageOptions = (n: number) => ({ imageDir: opts.images ? imageDir : undefined, imagePrefix: `p${n}` });
  // pdf.js's thread reads the next pages while this one lays out the last: a few, so that memory
  // holds no more than they are.
  const reads = new Map<number, Promise<PageRead>>();
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      checkAbort(opts.signal);
      for (let k = n; k <= Math.min(doc.numPages, n + readAhead); k++)
        if (!reads.has(k)) reads.set(k, readPage(doc, k, imageOptions(k)));
      const read = await reads.get(n)!;
      reads.delete(n);
      let layout: PageLayout;
      try {
        if ('error' in read) throw read.error;
        const { raw } = read;
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
      if (!scans[n - 1]) settle(layout);
      pages.push(layout);
      if (!scans[n - 1]) await opts.onPage?.(layout, n - 1);
    }
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    // Reads still under way (after an error) end with the document, as errors of their own.
    await doc.destroy().catch(() => undefined);
  }
  checkAbort(opts.signal);
  if (opts.readScans) await relayScans(pages, scans, opts);
  markFurniture(pages, bodySizeOf(pages, true));
  markContinuations(pages);
  markTableContinuations(pages);
  markHyphens(pages);
  const bodySize = classifyHeadings(pages);
  markTitles(pages);
  return { pages, bodySize };
}

/** Pages pdf.js reads beyond the one being laid out. */
const readAhead = 2;

type PageRead = { raw: RawPage } | { error: unknown };

/** One page's text and drawing, its pdf.js objects dropped once read; an error is returned, not thrown. */
async function readPage(doc: PdfDocument, n: number, images: ImageOptions): Promise<PageRead> {
  try {
    const page = await doc.getPage(n);
    try {
      return { raw: await extractPage(page, images) };
    } finally {
      page.cleanup();
    }
  } catch (error) {
    return { error };
  }
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
      pages[n - 1] = { ...settle(layout), scanned: true, ocr: true };
    }
    await opts.onPage?.(pages[n - 1]!, n - 1);
  }
}

/** A laid-out page's lines keep their runs and let their fragments go (see settleLine). */
function settle(page: PageLayout): PageLayout {
  for (const b of page.blocks) {
    if (b.kind === 'para') b.lines.forEach(settleLine);
    if (b.kind === 'table') for (const c of b.cells) c.lines.forEach(settleLine);
  }
  return page;
}

const covers = (b: { x0: number; x1: number; top: number; bottom: number }, page: RawPage) =>
  (b.x1 - b.x0) * (b.bottom - b.top) > 0.5 * page.width * page.height;

/**
 * The body text's size: the size most characters of the document's paragraphs are set in (and of
 * its tables' cells, with `cells`); 0 without any.
 */
function bodySizeOf(pages: PageLayout[], cells = false): number {
  const weight = new Map<number, number>();
  const add = (size: number, lines: Line[]) => {
    const key = Math.round(size * 2) / 2;
    weight.set(key, (weight.get(key) ?? 0) + lines.reduce((s, l) => s + l.text.length, 0));
  };
  for (const p of pages)
    for (const b of p.blocks) {
      if (b.kind === 'para' && !b.furniture) add(b.size, b.lines);
      if (b.kind === 'table' && cells) for (const c of b.cells) for (const l of c.lines) add(l.size, [l]);
    }
  let body = 0;
  let best = -1;
  for (const [s, w] of weight) if (w > best) [body, best] = [s, w];
  return body;
}

/**
 * Headings against the body text's style (the size most characters are set in). Larger sizes become
 * levels: sizes that head sections on several pages rank from level 1 down, the largest first; a
 * size larger still, met on one page only (a title page), is level 1 too. Short bold lines at body
 * size are headings only when set off above by more space than paragraphs are. Running headers,
 * table of contents entries and the rest of a paragraph cut by a page break are never headings.
 * Consecutive headings of one size set as tight as lines are one heading broken over lines.
 */
export function classifyHeadings(pages: PageLayout[]): number {
  const paras: Para[] = [];
  /** The space above each paragraph, where another block stands above it on the page. */
  const above = new Map<Para, number>();
  const bodyGaps: number[] = [];
  for (const p of pages) {
    let prev: PageLayout['blocks'][number] | undefined;
    for (const b of p.blocks) {
      if (b.kind === 'para' && b.furniture) continue;
      if (b.kind === 'para') {
        paras.push(b);
        // Space after a table or a figure says nothing of what follows it.
        if (prev?.kind === 'para') above.set(b, b.top - prev.bottom);
        if (prev?.kind === 'para' && prev.role === 'body' && b.role === 'body' && Math.abs(prev.size - b.size) < 0.5)
          bodyGaps.push(b.top - prev.bottom);
      }
      prev = b;
    }
  }
  const body = bodySizeOf(pages);
  if (!body) return 10;
  const paraGap = Math.max(0, median(bodyGaps));
  const textOf = (p: Para) => p.lines.map((l) => l.text).join(' ');
  const eligible = (p: Para) => {
    const t = textOf(p);
    if (p.role === 'list' || p.continues || p.lines.length > 3 || t.length > 200 || t.length < 2) return false;
    if (isSentences(t)) return false;
    return /\p{L}/u.test(t) && !p.lines.some((l) => isLeaderLine(l.text));
  };
  // The left edge body text starts at on each page, and its column's middle. A page of indented
  // text (a long note) takes the edge of the other pages on its side of the spread.
  const column = new Map<Para, { left: number; middle: number }>();
  const edges: { page: PageLayout; left: number; right: number }[] = [];
  for (const page of pages) {
    const lines = page.blocks.flatMap((b) =>
      b.kind === 'para' && b.role === 'body' && Math.abs(b.size - body) < 0.5 ? b.lines : [],
    );
    if (!lines.length) continue;
    // The leftmost edge at least three lines share: the column's, not a stray line's.
    const at = new Map<number, number>();
    for (const l of lines) at.set(Math.round(l.x0), (at.get(Math.round(l.x0)) ?? 0) + 1);
    const shared = [...at].filter(([, n]) => n >= 3).map(([x]) => x);
    const left = shared.length ? Math.min(...shared) : median(lines.map((l) => l.x0));
    edges.push({ page, left, right: Math.max(...lines.map((l) => l.x1)) });
  }
  for (const { page, left, right } of edges) {
    const side = median(edges.filter((e) => e.page.number % 2 === page.number % 2).map((e) => e.left));
    const edge = Math.min(left, side);
    for (const b of page.blocks) if (b.kind === 'para') column.set(b, { left: edge, middle: (edge + right) / 2 });
  }
  // Indented and not centred: a label inside a note or a definition list, not a section's heading.
  const indented = (p: Para) => {
    const c = column.get(p);
    return !!c && p.x0 > c.left + 1.5 * body && Math.abs((p.x0 + p.x1) / 2 - c.middle) > 2 * body;
  };
  const candidates = paras.filter((p) => eligible(p) && !indented(p) && p.size >= body * 1.15);
  const pagesOf = new Map<number, Set<PageLayout>>();
  for (const page of pages)
    for (const b of page.blocks)
      if (b.kind === 'para' && candidates.includes(b)) {
        const k = Math.round(b.size);
        if (!pagesOf.has(k)) pagesOf.set(k, new Set());
        pagesOf.get(k)!.add(page);
      }
  const all = [...pagesOf.keys()].sort((a, b) => b - a);
  const recurring = all.filter((k) => pagesOf.get(k)!.size >= 2);
  // A size between recurring ones ranks with the next smaller recurring size.
  const rank = (k: number) => (recurring.length ? recurring.filter((r) => r > k).length + 1 : all.indexOf(k) + 1);
  for (const p of candidates) {
    p.role = 'heading';
    p.level = Math.min(6, rank(Math.round(p.size)));
  }
  const levels = candidates.filter((p) => p.role === 'heading').map((p) => p.level);
  const boldLevel = Math.min(6, (levels.length ? Math.max(...levels) : 0) + 1);
  for (const p of paras) {
    if (p.role !== 'body' || !p.bold || p.lines.length > 2 || !eligible(p) || indented(p)) continue;
    const t = textOf(p);
    if (t.length > 120 || /[.,;:]$/.test(t)) continue;
    if (Math.abs(p.size - body) > body * 0.15) continue;
    const gap = above.get(p);
    if (gap === undefined || gap < Math.max(1.5 * paraGap, paraGap + 0.5 * p.size)) continue;
    p.role = 'heading';
    p.level = boldLevel;
  }
  for (const page of pages) labelRuns(page, boldLevel);
  for (const page of pages) joinHeadingLines(page, body);
  return body;
}

/**
 * Bold lines at body size that follow one another with no text between are a list of labels (terms,
 * style names), not sections: a heading heads something.
 */
function labelRuns(page: PageLayout, level: number): void {
  const paras = page.blocks.filter((b): b is Para => b.kind === 'para' && !b.furniture);
  const label = (p: Para | undefined, like: Para) =>
    !!p &&
    p.bold &&
    p.lines.length <= 2 &&
    Math.abs(p.size - like.size) < 0.5 &&
    (p.role === 'body' || p.level === level);
  const demote = paras.filter(
    (p, i) => p.role === 'heading' && p.level === level && (label(paras[i - 1], p) || label(paras[i + 1], p)),
  );
  for (const p of demote) {
    p.role = 'body';
    p.level = 0;
  }
}

/**
 * Sentences, however large they are set: a full stop ending a word, another sentence after it, and a
 * full stop at the end. A heading names its section; it does not say two things about it.
 */
export function isSentences(text: string): boolean {
  return /\p{Ll}{2,}[.!?]\s+\p{Lu}/u.test(text) && /[.!?]$/.test(text.trim());
}

/**
 * A heading broken over lines comes out of the page's layout as consecutive headings: one again. So
 * does a large heading's next line that was left as text for starting further in: a numbered title's
 * second line hangs under its words, not under its number.
 */
function joinHeadingLines(page: PageLayout, body: number): void {
  const hanging = (p: Para, next: Para) =>
    p.size >= body * 1.15 &&
    next.role === 'body' &&
    !next.furniture &&
    next.lines.length <= 2 &&
    next.x0 > p.x0 &&
    !isSentences(next.lines.map((l) => l.text).join(' '));
  const out: PageLayout['blocks'] = [];
  for (const b of page.blocks) {
    const prev = out[out.length - 1];
    if (
      prev?.kind === 'para' &&
      b.kind === 'para' &&
      prev.role === 'heading' &&
      (b.role === 'heading' ? prev.level === b.level : hanging(prev, b)) &&
      prev.bold === b.bold &&
      Math.abs(prev.size - b.size) < 0.5 &&
      b.top - prev.bottom < 0.6 * b.size &&
      prev.lines.length + b.lines.length <= 4
    ) {
      prev.lines.push(...b.lines);
      prev.x0 = Math.min(prev.x0, b.x0);
      prev.x1 = Math.max(prev.x1, b.x1);
      prev.bottom = b.bottom;
      continue;
    }
    out.push(b);
  }
  page.blocks = out;
}
