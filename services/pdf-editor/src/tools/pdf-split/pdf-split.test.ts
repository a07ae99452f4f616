import { describe, expect, it } from 'vitest';
import { pdf, useEditor, pages, check, text, unzip } from '../../../test/helpers.ts';

const { call } = useEditor();

describe('pdf-split', () => {
  it('makes one PDF per page by default, named after the input and the page', async () => {
    const r = await call('pdf-split', [pdf('pypdf-pdflatex-4-pages.pdf')]);
    expect(r.status).toBe(200);
    expect(r.name).toBe('pypdf-pdflatex-4-pages.zip');
    const entries = await unzip(r.file);
    expect(entries.map((e) => e.name)).toEqual([1, 2, 3, 4].map((n) => `pypdf-pdflatex-4-pages-p${n}.pdf`));
    for (const [i, e] of entries.entries()) {
      expect(pages(e.path)).toBe(1);
      expect(check(e.path)).toBe(0);
      expect(text(e.path)).toBe(text(pdf('pypdf-pdflatex-4-pages.pdf'), i + 1));
    }
  });

  it('keeps the pages in order past the ninth', async () => {
    const source = pdf('qpdf-c-object-streams.pdf');
    const r = await call('pdf-split', [source]);
    const entries = await unzip(r.file);
    expect(entries.map((e) => e.name)).toEqual(
      Array.from({ length: 30 }, (_, i) => `qpdf-c-object-streams-p${i + 1}.pdf`),
    );
    expect(r.props).toMatchObject({ files: 30, pages: 30 });
    for (const n of [1, 2, 9, 10, 11, 20, 30]) {
      expect(pages(entries[n - 1]!.path)).toBe(1);
      expect(text(entries[n - 1]!.path)).toBe(text(source, n));
    }
  });

  it('splits by the ranges asked for, an open range running to the end', async () => {
    const r = await call('pdf-split', [pdf('qpdf-11-pages.pdf')], { ranges: '1-3,4,5-' });
    const entries = await unzip(r.file);
    expect(entries.map((e) => e.name)).toEqual([
      'qpdf-11-pages-p1-3.pdf',
      'qpdf-11-pages-p4.pdf',
      'qpdf-11-pages-p5-11.pdf',
    ]);
    expect(entries.map((e) => pages(e.path))).toEqual([3, 1, 7]);
    expect(text(entries[2]!.path)).toMatch(/Original page 5[\s\S]*Original page 11/);
  });

  it('names the option and the page count when a range reaches past the end', async () => {
    const r = await call('pdf-split', [pdf('qpdf-11-pages.pdf')], { ranges: '1-3,12' });
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('invalid_option');
    expect(r.error?.message).toMatch(/"ranges"/);
    expect(r.error?.message).toMatch(/11 pages/);
    const backwards = await call('pdf-split', [pdf('qpdf-11-pages.pdf')], { ranges: '5-3' });
    expect(backwards.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"ranges"/) });
  });
});
