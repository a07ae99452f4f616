import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ToolError } from '@quire/service-kit';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

let loading: Promise<Pdfjs> | undefined;

/**
 * pdf.js, legacy build (the one meant for Node). Its worker code runs in this thread ("fake worker"):
 * loading it ourselves once, up front, saves every document from importing it again.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    const worker: unknown = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return loading;
}

/** Largest image pdf.js decodes, in pixels; bigger ones are skipped rather than filling memory. */
const maxImagePixels = 36_000_000;

/**
 * Opens a (decrypted) PDF with pdf.js. A file pdf.js cannot read at all is `damaged_input`.
 */
export async function openDocument(path: string): Promise<PdfDocument> {
  const pdfjs = await loadPdfjs();
  const data = new Uint8Array(await readFile(path));
  const task = pdfjs.getDocument({
    data,
    verbosity: 0,
    cMapUrl: join(root, 'cmaps') + '/',
    cMapPacked: true,
    standardFontDataUrl: join(root, 'standard_fonts') + '/',
    wasmUrl: join(root, 'wasm') + '/',
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    maxImageSize: maxImagePixels,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    isEvalSupported: false,
  });
  try {
    return await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') throw new ToolError('password_required', undefined, { cause: err });
    throw new ToolError('damaged_input', undefined, { cause: err });
  }
}

export async function pdfjsVersion(): Promise<string> {
  return (await loadPdfjs()).version;
}
