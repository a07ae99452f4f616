import { join } from 'node:path';
import type { OcrLanguage } from '@quire/catalog';
import { openPdf } from '@quire/pdf';
import type { ToolContext } from '@quire/service-kit';
import { analyzeDocument } from './layout/analyze.ts';
import type { DocLayout, PageLayout } from './layout/types.ts';
import { readScans } from './ocr/scans.ts';
import { withInk } from './ocr/pages.ts';
import { pageBudget } from './page-budget.ts';

/** The reading tools' OCR options: `auto` reads the pages without text, `off` none. */
export interface OcrRequest {
  ocr: 'auto' | 'off';
  language: OcrLanguage[];
}

export type InputDoc = DocLayout & { source: string; pagesWithoutText: number[] };

/**
 * The request's PDF, decrypted with its password, read into a layout (its scanned pages by OCR when
 * asked) and handed to `write`. Its pages' share of the service's budget (see page-budget.ts) is held
 * from the moment their count is known until `write` is done: the layout lives that long.
 */
export async function readInput<T>(
  ctx: ToolContext,
  opts: { images: boolean; ocr: OcrRequest; onPage?: (p: PageLayout, i: number) => Promise<void> | void },
  write: (doc: InputDoc) => Promise<T>,
): Promise<T> {
  const source = await openInput(ctx);
  let release = () => {};
  try {
    const doc = await analyzeDocument(source, {
      images: opts.images,
      workdir: ctx.workdir,
      signal: ctx.signal,
      onPage: opts.onPage,
      admit: async (pages) => void (release = await pageBudget.take(pages, ctx.signal)),
      ...(opts.ocr.ocr === 'auto' && { readScans: (pages) => readScans(source, pages, opts.ocr.language, ctx) }),
    });
    const textless = doc.pages.filter((p) => p.ocr && p.chars === 0).map((p) => p.number);
    return await write({ ...doc, source, pagesWithoutText: await withInk(source, textless, ctx) });
  } finally {
    release();
  }
}

/** The input ready to read: decrypted with the request's password when it is encrypted. */
export function openInput(ctx: ToolContext): Promise<string> {
  const input = ctx.inputs[0]!;
  return openPdf(input.path, ctx.password, ctx, join(ctx.workdir, 'decrypted.pdf'));
}

/** What every extract tool tells the caller: pages, which pages are scans, and which were read by OCR. */
export function summary(doc: InputDoc, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const scannedPages = doc.pages.filter((p) => p.scanned).map((p) => p.number);
  const ocrPages = doc.pages.filter((p) => p.ocr).map((p) => p.number);
  let tables = 0;
  let images = 0;
  let headings = 0;
  for (const p of doc.pages) {
    for (const b of p.blocks) {
      // A table a page break cut is one table.
      if (b.kind === 'table') tables += b.continues ? 0 : 1;
      else if (b.kind === 'image') images++;
      else if (b.role === 'heading') headings++;
    }
  }
  const unread = scannedPages.length > ocrPages.length;
  return {
    pages: doc.pages.length,
    scannedPages,
    ocrPages,
    pagesWithoutText: doc.pagesWithoutText,
    ...(unread && {
      note: 'Some pages are scanned images without a text layer; with OCR off their text was not read.',
    }),
    ...(doc.pagesWithoutText.length && { note: 'OCR found no text on some pages that are not blank.' }),
    tables,
    images,
    headings,
    ...extra,
  };
}
