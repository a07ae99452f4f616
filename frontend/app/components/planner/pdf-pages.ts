/**
 * A PDF opened in the browser by pdf.js, for its page count and small page images. This module is only
 * ever imported on demand, once a PDF is chosen, so no page pays for pdf.js before it needs it.
 */
import { getDocument, GlobalWorkerOptions, PasswordResponses, type PDFDocumentProxy } from 'pdfjs-dist';
// The worker is a file of the site's own build, served from its own origin.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { formFields, type FormField } from './form-fields.ts';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Width in pixels of a page image: enough to tell pages apart, small enough for hundreds of them. */
export const thumbnailWidth = 160;
/** Pages rendered at once; the others wait their turn. */
const atOnce = 2;

/** A page drawn: an object URL of its image, and the page's size as a viewer shows it (turned), in points. */
export interface Drawn {
  url: string;
  width: number;
  height: number;
}

/** Draws a page `width` pixels wide; the caller revokes the image's URL when it lets it go. */
export type Draw = (page: number, signal: AbortSignal, width?: number) => Promise<Drawn>;

export type OpenedPdf =
  | {
      ok: true;
      pageCount: number;
      /** A page's image, {@link thumbnailWidth} pixels wide unless asked otherwise. */
      draw: Draw;
      /** The form fields a visitor may fill. */
      fields: () => Promise<FormField[]>;
      close: () => void;
    }
  | { ok: false; reason: 'password' | 'wrongPassword' | 'unreadable' };

/** A PDF pdf.js could open. */
export type ReadablePdf = Extract<OpenedPdf, { ok: true }>;

/** What a tool's page view is given: the opened PDF, the form's fields, and where to write the ones it sets. */
export interface FieldsView {
  pdf: ReadablePdf;
  values: Record<string, string>;
  onChange: (changes: Record<string, string>) => void;
}

export async function openPdf(file: File, password: string): Promise<OpenedPdf> {
  let doc: PDFDocumentProxy;
  try {
    doc = await getDocument({ data: new Uint8Array(await file.arrayBuffer()), password: password || undefined })
      .promise;
  } catch (error) {
    const code =
      (error as { name?: string; code?: number }).name === 'PasswordException' && (error as { code?: number }).code;
    if (code === PasswordResponses.NEED_PASSWORD) return { ok: false, reason: password ? 'wrongPassword' : 'password' };
    if (code === PasswordResponses.INCORRECT_PASSWORD) return { ok: false, reason: 'wrongPassword' };
    return { ok: false, reason: 'unreadable' };
  }
  const queue = limit(atOnce);
  return {
    ok: true,
    pageCount: doc.numPages,
    draw: (page, signal, width = thumbnailWidth) => queue(() => render(doc, page, width, signal)),
    fields: async () => formFields((await doc.getFieldObjects()) as Parameters<typeof formFields>[0]),
    close: () => void doc.destroy(),
  };
}

/**
 * A page drawn `width` pixels wide. pdf.js shows the part of the page a viewer does (the crop box within
 * the media box) turned by its /Rotate, as the tools measure it, so its size at scale 1 is theirs in points.
 */
async function render(doc: PDFDocumentProxy, number: number, width: number, signal: AbortSignal): Promise<Drawn> {
  signal.throwIfAborted();
  const page = await doc.getPage(number);
  const unit = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: width / unit.width });
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(viewport.width);
  canvas.height = Math.ceil(viewport.height);
  signal.throwIfAborted();
  const task = page.render({ canvas, viewport });
  signal.addEventListener('abort', () => task.cancel(), { once: true });
  await task.promise;
  page.cleanup();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.8));
  canvas.width = 0; // frees the bitmap now rather than at the next collection
  if (!blob) throw new Error('the page could not be drawn');
  return { url: URL.createObjectURL(blob), ...shownSize(page.view, page.rotate) };
}

/** A page's size as shown, in points (not scaled by a /UserUnit, which the tools do not read either). */
function shownSize([x0, y0, x1, y1]: number[], rotate: number): { width: number; height: number } {
  const [w, h] = [Math.abs(x1! - x0!), Math.abs(y1! - y0!)];
  return rotate % 180 === 0 ? { width: w, height: h } : { width: h, height: w };
}

/** Runs at most `n` of the given jobs at a time, in the order they came. */
function limit(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await job();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
