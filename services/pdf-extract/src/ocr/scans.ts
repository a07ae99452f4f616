import { mapLimit, parallelism, ToolError, type Job } from '@quire/base';
import type { OcrLanguage } from '@quire/catalog';
import type { Frag } from '../layout/types.ts';
import { maxOcrPages } from './pages.ts';
import { readPageWords, type ScanPage } from './tesseract.ts';

/**
 * The words of a PDF's scanned pages by OCR, pages side by side, each page read told as progress;
 * file_too_large past the OCR page limit of the job's time (`timeMs`).
 */
export function readScans(
  path: string,
  pages: ScanPage[],
  language: OcrLanguage[],
  job: Job & { timeMs: number; progress?: (pagesDone: number) => void },
): Promise<Frag[][]> {
  const most = maxOcrPages(job.timeMs);
  if (pages.length > most)
    throw new ToolError(
      'file_too_large',
      `This PDF has ${pages.length} scanned pages; OCR reads at most ${most} pages at a time. ` +
        'Split it first, or set ocr to off.',
    );
  let read = 0;
  return mapLimit(pages, parallelism(), async (p) => {
    const words = await readPageWords(path, p, language, job);
    job.progress?.(++read);
    return words;
  });
}
