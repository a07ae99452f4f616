import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { call, elementText, officeParts, pdf } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';

const app = useExtract();

describe('pdf-to-ppt', () => {
  it('makes one slide per page at the page aspect ratio, text editable on a text-free background', async () => {
    const a = await call(app(), 'pdf-to-ppt', pdf('pypdf-pdflatex-4-pages.pdf'));
    const parts = officeParts(a.file!);
    const slides = Object.keys(parts).filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n));
    expect(slides).toHaveLength(4);
    const size = /<p:sldSz cx="(\d+)" cy="(\d+)"/.exec(parts['ppt/presentation.xml']!)!;
    const info = execFileSync('pdfinfo', [pdf('pypdf-pdflatex-4-pages.pdf')]).toString();
    const [, w, h] = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(info)!;
    expect(Number(size[1]) / Number(size[2])).toBeCloseTo(Number(w) / Number(h), 2);
    expect(parts['ppt/slides/slide1.xml']).toMatch(/<p:sp>[\s\S]*<a:t>/);
    expect(a.properties.backgrounds).toBe(4);
  });

  it('puts the words of a scanned page read by OCR on a slide without the scan behind them', async () => {
    const a = await call(app(), 'pdf-to-ppt', pdf('camelot-image-scanned-table.pdf'));
    expect(a.properties).toMatchObject({ ocrPages: [1], backgrounds: 0 });
    const text = elementText(officeParts(a.file!)['ppt/slides/slide1.xml']!, 'a:t').join(' ');
    expect(text).toContain('Pelvis');
  }, 60_000);
});
