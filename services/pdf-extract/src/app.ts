import { programVersion } from '@quire/base';
import { createServiceApp, toolFolders, type ServiceOptions } from '@quire/service-kit';
import { loadPdfjs } from './pdfjs.ts';

/** The catalog's pdf-extract tools, each from its folder under tools/. */
export const { tools, loaded } = toolFolders('pdf-extract', new URL('./tools/', import.meta.url));

/**
 * The engines answer: pdf.js for every tool, qpdf to decrypt, Ghostscript for slide backgrounds,
 * OCRmyPDF and Tesseract for OCR.
 */
export async function health(): Promise<Record<string, unknown>> {
  const [pdfjs, qpdf, ghostscript, ocrmypdf, tesseract] = await Promise.all([
    loadPdfjs().then((p) => p.version),
    programVersion('qpdf'),
    programVersion('gs'),
    programVersion('ocrmypdf', ['--version'], 15_000),
    programVersion('tesseract'),
  ]);
  return { pdfjs, qpdf, ghostscript, ocrmypdf, tesseract };
}

export const serviceOptions: ServiceOptions = { name: 'pdf-extract', tools, health };

/** The service's express app, for in-process tests. */
export function createApp() {
  return createServiceApp(serviceOptions);
}
