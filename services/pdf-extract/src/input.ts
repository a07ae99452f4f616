import { join } from 'node:path';
import { openPdf } from '@quire/pdf';
import type { ToolContext } from '@quire/service-kit';
import { analyzeDocument } from './layout/analyze.ts';
import type { DocLayout, PageLayout } from './layout/types.ts';

/** The request's PDF, decrypted with its password, read into a layout. */
export async function readInput(
  ctx: ToolContext,
  opts: { images: boolean; onPage?: (p: PageLayout, i: number) => Promise<void> | void },
): Promise<DocLayout & { source: string }> {
  const source = await openInput(ctx);
  const doc = await analyzeDocument(source, {
    images: opts.images,
    workdir: ctx.workdir,
    signal: ctx.signal,
    onPage: opts.onPage,
  });
  return { ...doc, source };
}

/** The input ready to read: decrypted with the request's password when it is encrypted. */
export function openInput(ctx: ToolContext): Promise<string> {
  const input = ctx.inputs[0]!;
  return openPdf(input.path, ctx.password, ctx, join(ctx.workdir, 'decrypted.pdf'));
}

/** What every extract tool tells the caller: pages, and which pages are scans without text. */
export function summary(doc: DocLayout, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const scannedPages = doc.pages.filter((p) => p.scanned).map((p) => p.number);
  let tables = 0;
  let images = 0;
  let headings = 0;
  for (const p of doc.pages) {
    for (const b of p.blocks) {
      if (b.kind === 'table') tables++;
      else if (b.kind === 'image') images++;
      else if (b.role === 'heading') headings++;
    }
  }
  return {
    pages: doc.pages.length,
    scannedPages,
    ...(scannedPages.length
      ? { note: 'Some pages are scanned images without a text layer; their text cannot be extracted (no OCR).' }
      : {}),
    tables,
    images,
    headings,
    ...extra,
  };
}
