import { describe, expect, it } from 'vitest';
import { call, elementText, officeParts, pdf } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';

const app = useExtract();

describe('pdf-to-word', () => {
  it('writes Word paragraphs that flow, with heading styles, runs and no text boxes', async () => {
    const a = await call(app(), 'pdf-to-word', pdf('pypdf-multicolumn.pdf'));
    const parts = officeParts(a.file!);
    const doc = parts['word/document.xml']!;
    expect(doc).not.toMatch(/<w:txbxContent|<w:framePr|<v:textbox|<wps:txbx/);
    expect(doc).toMatch(/<w:pStyle w:val="Heading1"\/>/);
    expect(doc).toMatch(/<w:b\/>/);
    const paragraphs = [...doc.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((m) => elementText(m[0], 'w:t').join(''));
    const long = paragraphs.filter((p) => p.length > 300);
    // Paragraphs, not lines: many long ones.
    expect(long.length).toBeGreaterThanOrEqual(5);
  });

  it('places images in Word documents', async () => {
    const a = await call(app(), 'pdf-to-word', pdf('pypdf-pdflatex-image.pdf'));
    const parts = officeParts(a.file!);
    expect(parts['word/document.xml']).toMatch(/<pic:pic/);
  });

  it('reads pages that are only images by OCR, and says where it found no text on ink', async () => {
    const a = await call(app(), 'pdf-to-word', pdf('pypdf-imagemagick-images.pdf'));
    expect(a.status).toBe(200);
    // Each page is one flat 16-pixel image: no words, and no ink to call missed text.
    expect(a.properties).toMatchObject({
      scannedPages: [1, 2, 3, 4, 5, 6],
      ocrPages: [1, 2, 3, 4, 5, 6],
      pagesWithoutText: [],
    });
  });
});
