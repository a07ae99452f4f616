import type { ToolId } from '@quire/catalog';
import { createServiceApp, exec, type ServiceOptions, type ToolRun } from '@quire/service-kit';
import { loadPdfjs } from './pdfjs.ts';
import { pdfToExcel } from './tools/pdf-to-excel.ts';
import { pdfToHtml } from './tools/pdf-to-html.ts';
import { pdfToPpt } from './tools/pdf-to-ppt.ts';
import { pdfToText } from './tools/pdf-to-text.ts';
import { pdfToWord } from './tools/pdf-to-word.ts';

/** The catalog's pdf-extract tools, by canonical id. */
export const tools = {
  'pdf-to-text': pdfToText,
  'pdf-to-word': pdfToWord,
  'pdf-to-excel': pdfToExcel,
  'pdf-to-ppt': pdfToPpt,
  'pdf-to-html': pdfToHtml,
} satisfies Partial<Record<ToolId, ToolRun>>;

/** The engines answer: pdf.js for every tool, qpdf to decrypt, Ghostscript for slide backgrounds. */
export async function health(): Promise<Record<string, unknown>> {
  const [pdfjs, qpdf, ghostscript] = await Promise.all([
    loadPdfjs().then((p) => p.version),
    version('qpdf', '--version'),
    version('gs', '--version'),
  ]);
  return { pdfjs, qpdf, ghostscript };
}

async function version(command: string, flag: string): Promise<string> {
  const { code, stdout } = await exec(command, [flag], { timeoutMs: 5000 });
  if (code !== 0) throw new Error(`${command} ${flag} exited ${code}`);
  return stdout.split('\n')[0]!.trim();
}

export const serviceOptions: ServiceOptions = { name: 'pdf-extract', tools, health };

/** The service's express app, for in-process tests. */
export function createApp() {
  return createServiceApp(serviceOptions);
}
