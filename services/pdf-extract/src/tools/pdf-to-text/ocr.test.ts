import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, pdf } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';
import { wordMatch } from '../../../test/word-match.ts';
import { defaults } from '@quire/base';
import { maxOcrPages } from '../../ocr/pages.ts';

const app = useExtract();

describe('pdf-to-text reads scanned pages by OCR', () => {
  it('reads a three-page encrypted scan with the words of its expected text', async () => {
    const a = await call(app(), 'pdf-to-text', pdf('textract-ocr_text-scanned.pdf'));
    expect(a.status).toBe(200);
    expect(a.properties).toMatchObject({ scannedPages: [1, 2, 3], ocrPages: [1, 2, 3], pagesWithoutText: [] });
    const found = readFileSync(a.file!, 'utf8');
    const score = wordMatch(found, readFileSync(pdf('textract-ocr_text-scanned.expected.txt'), 'utf8'));
    // Measured recall 0.981 and precision 0.991 (OCRmyPDF's sidecar: word F1 0.971 on this file).
    expect(score.recall).toBeGreaterThan(0.96);
    expect(score.precision).toBeGreaterThan(0.97);
  }, 60_000);

  it('leaves scanned pages unread with ocr=off', async () => {
    const a = await call(app(), 'pdf-to-text', pdf('textract-ocr_text-scanned.pdf'), { ocr: 'off' });
    expect(a.properties).toMatchObject({ scannedPages: [1, 2, 3], ocrPages: [], pagesWithoutText: [] });
    expect(readFileSync(a.file!, 'utf8').trim()).toBe('');
  });

  it('does not OCR a digital PDF', async () => {
    const a = await call(app(), 'pdf-to-text', pdf('pypdf-multicolumn.pdf'));
    expect(a.properties).toMatchObject({ scannedPages: [], ocrPages: [] });
  });

  it('answers file_too_large naming the limit past the scanned pages OCR reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ocr-limit-'));
    try {
      // The three-page scan over and over: one more page than the limit, its images shared.
      const scan = pdf('textract-ocr_text-scanned.pdf');
      const long = join(dir, 'long.pdf');
      const copies = Array.from({ length: Math.ceil((maxOcrPages(defaults.jobTimeoutMs) + 1) / 3) }, () => [
        scan,
        '1-3',
      ]).flat();
      execFileSync('qpdf', ['--empty', '--pages', ...copies, '--', long]);
      const a = await call(app(), 'pdf-to-text', long);
      expect(a.status).toBe(413);
      expect(a.error?.code).toBe('file_too_large');
      expect(a.error?.message).toContain(`${maxOcrPages(defaults.jobTimeoutMs)} pages`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('reads a scan on a page too vast to render at once at a lower resolution, or keeps it as a picture', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ocr-vast-'));
    try {
      // A one-page scan whose /MediaBox claims 65,536 points across: at the scan's 300 dpi that is 270,000
      // pixels, more than Tesseract takes; the page keeps its picture and the call answers at once.
      const text = readFileSync(pdf('pdfminer-pdf-with-jbig2.pdf'), 'latin1');
      const vast = join(dir, 'vast.pdf');
      writeFileSync(vast, text.replace(/(\/MediaBox\s*\[\s*0\s+0\s+)(\d+)/, '$165536'), 'latin1');
      const a = await call(app(), 'pdf-to-text', vast);
      expect(a.error).toBeUndefined();
      expect(a.properties).toMatchObject({ scannedPages: [1], pagesWithoutText: [1] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
