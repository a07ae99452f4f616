/**
 * A PDF opened in the browser by pdf.js, for its page count and small page images. This module is only
 * ever imported on demand, once a PDF is chosen, so no page pays for pdf.js before it needs it.
 */
import { getDocument, GlobalWorkerOptions, PasswordResponses, type PDFDocumentProxy } from 'pdfjs-dist';
// The worker is a file of the site's own build, served from its own origin.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Width in pixels of a page image: enough to tell pages apart, small enough for hundreds of them. */
const thumbnailWidth = 160;
/** Pages rendered at once; the others wait their turn. */
const atOnce = 2;

export type OpenedPdf =
  | {
      ok: true;
      pageCount: number;
      thumbnail: (page: number, signal: AbortSignal) => Promise<string>;
      close: () => void;
    }
  | { ok: false; reason: 'password' | 'wrongPassword' | 'unreadable' };

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
    thumbnail: (page, signal) => queue(() => render(doc, page, signal)),
    close: () => void doc.destroy(),
  };
}

/** An object URL of a page drawn small; the caller revokes it when the image is let go. */
async function render(doc: PDFDocumentProxy, number: number, signal: AbortSignal): Promise<string> {
  signal.throwIfAborted();
  const page = await doc.getPage(number);
  const unit = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: thumbnailWidth / unit.width });
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
  return URL.createObjectURL(blob);
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
