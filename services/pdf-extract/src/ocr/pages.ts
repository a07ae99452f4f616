import { mapLimit, type Job } from '@quire/base';
import { constants } from '@quire/catalog';
import { pageIsBlank } from '@quire/pdf';

/**
 * Pages one call reads by OCR, so that a scan within it finishes inside the call's time: 30 in the
 * 120 s of a tool call, more in the time a queued job gives. Documented in docs/api.md.
 */
export function maxOcrPages(timeMs: number): number {
  return Math.max(1, Math.floor(timeMs / constants.ocrPageMs));
}

/** Pixels of one page read by OCR: an A3 page at 600 dpi; more is a photo Tesseract would take minutes over. */
export const maxOcrPixels = 70_000_000;

/** Of these pages, those with ink on them: OCR found no text there, and it is not a blank page. */
export async function withInk(path: string, pages: number[], job: Job): Promise<number[]> {
  const blank = await mapLimit(pages, 2, (p) => pageIsBlank(path, p, job));
  return pages.filter((_, i) => !blank[i]);
}
