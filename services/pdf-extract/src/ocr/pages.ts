import { mapLimit, type Job } from '@quire/base';
import { pageIsBlank } from '@quire/pdf';

/**
 * Pages read by OCR in one call, so that a scan within it finishes inside the job's time (120 s by
 * default): Tesseract takes 1.5 to 5 s a page here, two pages at a time on two cores. Longer scans
 * wait for long-running jobs. Documented in docs/api.md.
 */
export const maxOcrPages = 40;

/** Pixels of one page read by OCR: an A3 page at 600 dpi; more is a photo Tesseract would take minutes over. */
export const maxOcrPixels = 70_000_000;

/** Of these pages, those with ink on them: OCR found no text there, and it is not a blank page. */
export async function withInk(path: string, pages: number[], job: Job): Promise<number[]> {
  const blank = await mapLimit(pages, 2, (p) => pageIsBlank(path, p, job));
  return pages.filter((_, i) => !blank[i]);
}
