import { mapLimit, type Job } from '@quire/base';
import { pageIsBlank } from '@quire/pdf';

/** Pages read by OCR in one call: a 100-page scan takes most of the job's time on two cores. Documented in docs/api.md. */
export const maxOcrPages = 100;

/** Of these pages, those with ink on them: OCR found no text there, and it is not a blank page. */
export async function withInk(path: string, pages: number[], job: Job): Promise<number[]> {
  const blank = await mapLimit(pages, 2, (p) => pageIsBlank(path, p, job));
  return pages.filter((_, i) => !blank[i]);
}
