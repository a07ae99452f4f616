import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, pdf } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';
import { wordMatch } from '../../../test/word-match.ts';

const app = useExtract();

describe('pdf-to-text reads scanned pages by OCR', () => {
  it('reads a three-page encrypted scan with the words of its expected text', async () => {
    const a = await call(app(), 'pdf-to-text', pdf('textract-ocr_text-scanned.pdf'));
    expect(a.status).toBe(200);
    expect(a.properties).toMatchObject({ scannedPages: [1, 2, 3], ocrPages: [1, 2, 3], pagesWithoutText: [] });
    const found = readFileSync(a.file!, 'utf8');
    const score = wordMatch(found, readFileSync(pdf('textract-ocr_text-scanned.expected.txt'), 'utf8'));
    // Measured 0.961 and 0.968 (OCRmyPDF's sidecar: word F1 0.971 on this file).
    expect(score.recall).toBeGreaterThan(0.94);
    expect(score.precision).toBeGreaterThan(0.95);
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
});
