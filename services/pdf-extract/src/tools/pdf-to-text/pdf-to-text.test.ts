import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, pdf } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';

const app = useExtract();

describe('pdf-to-text', () => {
  it('reads two columns column by column, not line by line', async () => {
    const a = await call(app(), 'pdf-to-text', pdf('pypdf-multicolumn.pdf'));
    const text = readFileSync(a.file!, 'utf8').replace(/\s+/g, ' ');
    // The left column's first paragraph comes whole before the right column starts.
    const left = text.indexOf('Lorem ipsum dolor sit amet, consectetuer adip');
    const leftLater = text.indexOf('Nulla malesuada porttitor diam');
    const right = text.indexOf('pellentesque ante. Phasellus adipiscing semper elit');
    expect(left).toBeGreaterThan(-1);
    expect(right).toBeGreaterThan(leftLater);
    expect(leftLater).toBeGreaterThan(left);
  });

  it('gives Markdown headings, paragraphs and lists', async () => {
    const a = await call(app(), 'pdf-to-text', pdf('pypdf-multicolumn.pdf'), { format: 'md' });
    expect(a.headers['content-type']).toMatch(/^text\/markdown/);
    const md = readFileSync(a.file!, 'utf8');
    expect(md).toMatch(/^# Two-Column Document with Lorem Ipsum$/m);
    expect(md).toMatch(/^#{1,3} \**Abstract/m);
    const outline = await call(app(), 'pdf-to-text', pdf('pypdf-pdflatex-outline.pdf'), { format: 'md' });
    expect(readFileSync(outline.file!, 'utf8')).toMatch(/^#{1,3} /m);
  });

  it('says which pages are scans, and that with OCR off their text was not read', async () => {
    const t = await call(app(), 'pdf-to-text', pdf('camelot-image-scanned-table.pdf'), { ocr: 'off' });
    expect(t.properties).toMatchObject({ scannedPages: [1], ocrPages: [], pagesWithoutText: [] });
    expect(t.properties.note).toMatch(/OCR off/);
  });

  it('keeps an unknown option value out', async () => {
    const a = await call(app(), 'pdf-to-text', pdf('qpdf-11-pages.pdf'), { format: 'rtf' });
    expect(a.status).toBe(400);
    expect(a.error?.code).toBe('invalid_option');
  });
});
