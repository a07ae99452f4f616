import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { check, corpus, pages, pdf, rotations, scratch, text, useEditor } from '../../../test/helpers.ts';
import { changedBox, render } from '../../../test/render.ts';
import { roman } from '@quire/catalog/page-labels';

const { call } = useEditor();
const eleven = pdf('qpdf-11-pages.pdf');

const words = (s: string) => s.split(/\s+/).filter(Boolean).sort();
/** The page's words are the source page's and the label's, nothing else. */
function expectLabelOnly(result: string, source: string, page: number, label: string) {
  expect(words(text(result, page)), `page ${page}`).toEqual(words(`${text(source, page)} ${label}`));
}

describe('add-page-numbers', () => {
  it('numbers every page at the bottom centre by default, the page text kept', async () => {
    const r = await call('add-page-numbers', [eleven]);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(pages(r.file)).toBe(11);
    expect(check(r.file)).toBe(0);
    for (let p = 1; p <= 11; p++) expectLabelOnly(r.file, eleven, p, String(p));
    const box = changedBox(render(eleven, 1, 72), render(r.file, 1, 72))!;
    expect((box.left + box.right) / 2).toBeCloseTo(0.5, 1);
    expect(box.bottom).toBeGreaterThan(0.95); // 10 mm above the bottom edge of a Letter page
    expect(box.bottom).toBeLessThan(0.99);
    expect(r.props).toMatchObject({ pages: 11, numbered: 11, first: 1, last: 11 });
  });

  it('numbers only the chosen pages, from the first number, leaving the others as they were', async () => {
    const r = await call('add-page-numbers', [eleven], { pages: '2-4,9', start: '5', format: 'page-of-total' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect([2, 3, 4, 9].map((p) => text(r.file, p).match(/Page \d+ of \d+/)?.[0])).toEqual([
      'Page 5 of 8',
      'Page 6 of 8',
      'Page 7 of 8',
      'Page 8 of 8',
    ]);
    expectLabelOnly(r.file, eleven, 9, 'Page 8 of 8');
    for (const p of [1, 5, 6, 7, 8, 10, 11]) {
      expect(text(r.file, p)).toBe(text(eleven, p));
      expect(render(r.file, p, 36).pixels.equals(render(eleven, p, 36).pixels), `page ${p}`).toBe(true);
    }
  });

  it('writes Roman numerals in either case', async () => {
    const upper = await call('add-page-numbers', [eleven], { format: 'roman-upper', pages: '1-4' });
    expect([1, 2, 3, 4].map((p) => words(text(upper.file, p)).filter((w) => /^[IVX]+$/.test(w)))).toEqual([
      ['I'],
      ['II'],
      ['III'],
      ['IV'],
    ]);
    const lower = await call('add-page-numbers', [eleven], { format: 'roman-lower', start: '9', pages: '1-2' });
    expectLabelOnly(lower.file, eleven, 2, 'x');
    expect([1994, 3999, 48].map(roman)).toEqual(['MCMXCIV', 'MMMCMXCIX', 'XLVIII']);
  });

  it('places the number in the corner asked for on pages turned every way, upright', async () => {
    const source = pdf('qpdf-rotated-20-pages.pdf');
    expect(rotations(source).slice(0, 4)).toEqual([0, 180, 270, 90]);
    const r = await call('add-page-numbers', [source], {
      position: 'top-right',
      format: 'page-of-total',
      fontSize: '20',
    });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(rotations(r.file)).toEqual(rotations(source));
    for (let p = 1; p <= 4; p++) {
      expect(text(r.file, p)).toContain(`Page ${p} of 20`);
      const box = changedBox(render(source, p, 36), render(r.file, p, 36))!;
      expect(box.right, `page ${p}`).toBeGreaterThan(0.85);
      expect(box.top, `page ${p}`).toBeLessThan(0.1);
      expect(box.left, `page ${p}`).toBeGreaterThan(0.5);
      expect(box.bottom - box.top, `page ${p}: one line across`).toBeLessThan(0.1);
    }
  });

  it('mirrors the corner for a right-to-left document', async () => {
    const r = await call('add-page-numbers', [eleven], { position: 'bottom-left', direction: 'rtl', pages: '1' });
    const box = changedBox(render(eleven, 1, 36), render(r.file, 1, 36))!;
    expect(box.left).toBeGreaterThan(0.8);
    expect(box.bottom).toBeGreaterThan(0.9);
    const ltr = await call('add-page-numbers', [eleven], { position: 'bottom-left', pages: '1' });
    expect(changedBox(render(eleven, 1, 36), render(ltr.file, 1, 36))!.right).toBeLessThan(0.2);
  });

  it('places the number in the part a viewer shows, on a page whose boxes are away from the origin', async () => {
    const doc = await PDFDocument.load(readFileSync(eleven), { updateMetadata: false });
    const page = doc.getPage(0);
    page.setMediaBox(-100, -50, 712, 842);
    page.setCropBox(306, 396, 306, 396);
    const moved = join(scratch, 'moved-boxes.pdf');
    writeFileSync(moved, await doc.save());
    const r = await call('add-page-numbers', [moved], { pages: '1', margin: '5' });
    expect(text(r.file, 1)).toMatch(/\b1\b/);
    const box = changedBox(render(moved, 1, 72), render(r.file, 1, 72))!;
    expect((box.left + box.right) / 2).toBeCloseTo(0.5, 1);
    expect(box.bottom).toBeGreaterThan(0.9);
    expect(box.bottom).toBeLessThanOrEqual(1);
  });

  it('numbers an encrypted PDF opened with its password', async () => {
    const file = join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf');
    const r = await call('add-page-numbers', [file], { password: 'user', pages: '20', start: '20' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(pages(r.file)).toBe(20);
    expect(words(text(r.file, 20))).toEqual(words(`${text(file, 20, 'user')} 20`));
    const wrong = await call('add-page-numbers', [file], { password: 'not-it' });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
  });

  it('refuses bad options with a 400 naming the field', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ pages: '3-12' }, 'pages'],
      [{ pages: 'x' }, 'pages'],
      [{ fontSize: '500' }, 'fontSize'],
      [{ margin: '-1' }, 'margin'],
      [{ start: '0' }, 'start'],
      [{ start: '3995', format: 'roman-upper' }, 'start'],
      [{ position: 'middle' }, 'position'],
    ];
    for (const [fields, field] of cases) {
      const r = await call('add-page-numbers', [eleven], fields);
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.error?.message, JSON.stringify(fields)).toContain(`"${field}"`);
    }
    const notPdf = await call('add-page-numbers', [join(corpus, 'images/sharp-Landscape_3.jpg')]);
    expect(notPdf.status).toBeGreaterThanOrEqual(400);
    expect(notPdf.status).toBeLessThan(500);
  });
});
