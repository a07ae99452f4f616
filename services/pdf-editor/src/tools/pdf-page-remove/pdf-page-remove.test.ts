import { describe, expect, it } from 'vitest';
import { pdf, useEditor, pages, check, text } from '../../../test/helpers.ts';

const { call } = useEditor();

describe('pdf-page-remove', () => {
  it('removes the pages named and keeps the rest in order', async () => {
    const r = await call('pdf-page-remove', [pdf('qpdf-11-pages.pdf')], { pages: '2,4-6' });
    expect(pages(r.file)).toBe(7);
    expect(check(r.file)).toBe(0);
    const t = text(r.file);
    expect([...t.matchAll(/Original page (\d+)/g)].map((m) => Number(m[1]))).toEqual([1, 3, 7, 8, 9, 10, 11]);
  });

  it('refuses to remove every page, or a page that is not there', async () => {
    const all = await call('pdf-page-remove', [pdf('qpdf-11-pages.pdf')], { pages: '1-' });
    expect(all.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"pages"/) });
    const past = await call('pdf-page-remove', [pdf('qpdf-11-pages.pdf')], { pages: '3,12' });
    expect(past.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"pages".*11 pages/) });
    const none = await call('pdf-page-remove', [pdf('qpdf-11-pages.pdf')]);
    expect(none.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"pages"/) });
  });
});
