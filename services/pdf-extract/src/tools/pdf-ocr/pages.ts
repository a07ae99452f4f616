import { exec, mapLimit, timeLeft, type Job } from '@quire/base';
import { greySimilarity, pageText, renderPage, samplePageNumbers } from '@quire/pdf';

/** Each page's text, from one pdftotext run whose pages end with a form feed; page by page if they do not split. */
export async function textByPage(path: string, pages: number, job: Job): Promise<string[]> {
  const args = ['-q', '-enc', 'UTF-8', path, '-'];
  const { stdout } = await exec('pdftotext', args, {
    timeoutMs: timeLeft(job.deadline),
    signal: job.signal,
    maxOutput: 64 * 1024 * 1024,
  });
  const texts = stdout.normalize('NFKC').split('\f');
  if (texts.length === pages + 1) return texts.slice(0, pages);
  return mapLimit(
    Array.from({ length: pages }, (_, i) => i + 1),
    2,
    (p) => pageText(path, p, job),
  );
}

/** Whether a page's text holds a letter or a digit: a text layer someone can search. */
export const hasText = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** Low, since only the look of the page is compared: SSIM is taken on some 256 pixels a side. */
const lookDpi = 40;
/** How many pages, spread over the document, are compared. */
const lookSample = 4;

/**
 * The lowest SSIM of a spread of pages between two PDFs of as many pages, each rendered grey at a low
 * resolution: 1 when they look alike.
 */
export async function leastLikeness(before: string, after: string, pages: number, job: Job): Promise<number> {
  const scores = await mapLimit(samplePageNumbers(pages, lookSample), 2, async (p) => {
    const [a, b] = await Promise.all([renderPage(before, p, lookDpi, job), renderPage(after, p, lookDpi, job)]);
    return greySimilarity(a, b);
  });
  return Math.min(...scores);
}
