import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, corpus, encrypted, pages, pdf, rotations, text, useEditor } from '../../../test/helpers.ts';

const { call } = useEditor();

/** The "Original page N" each page of a qpdf test file shows, or 0 for a page without text. */
const originals = (file: string, password?: string) =>
  Array.from({ length: pages(file) }, (_, i) =>
    Number(/Original page (\d+)/.exec(text(file, i + 1, password))?.[1] ?? 0),
  );

/** Each page's size as pdfinfo gives it, width x height in points before its /Rotate. */
const sizes = (file: string) =>
  [
    ...execFileSync('pdfinfo', ['-f', '1', '-l', '999', file])
      .toString()
      .matchAll(/size:\s+([\d.]+) x ([\d.]+)/g),
  ].map((m) => `${Math.round(Number(m[1]))}x${Math.round(Number(m[2]))}`);

describe('organize-pdf', () => {
  it('reorders, repeats, turns and drops pages, and adds blanks, as the plan says', async () => {
    const source = pdf('qpdf-11-pages.pdf');
    const r = await call('organize-pdf', [source], { plan: '3,1-2,5r90,blank,2,11-9r180' });
    expect(r.status).toBe(200);
    expect(originals(r.file)).toEqual([3, 1, 2, 5, 0, 2, 11, 10, 9]);
    expect(rotations(r.file)).toEqual([0, 0, 0, 90, 0, 0, 180, 180, 180]);
    expect(text(r.file, 5).trim()).toBe('');
    expect(sizes(source)[4]).toBe('612x792');
    expect(sizes(r.file)[4]).toBe('792x612'); // the blank follows page 5 turned sideways
    expect(r.props).toMatchObject({ pages: 9, blank: 1, turned: 4 });
    expect(check(r.file)).toBe(0);
  });

  it('turns a repeated page in one place only, from its current rotation', async () => {
    const source = pdf('qpdf-rotated-20-pages.pdf');
    const r = await call('organize-pdf', [source], { plan: '2,2r90,3-' });
    const before = rotations(source);
    expect(rotations(r.file)).toEqual([before[1], (before[1]! + 90) % 360, ...before.slice(2)]);
    expect(pages(r.file)).toBe(20);
  });

  it('makes a blank the shape its neighbour shows: sideways after a sideways page, upright before an upright one', async () => {
    const source = pdf('qpdf-rotated-20-pages.pdf'); // letter; page 1 upright, page 3 at 270
    const r = await call('organize-pdf', [source], { plan: 'blank,1,3,blank,1r90,blank' });
    expect(rotations(r.file)).toEqual([0, 0, 270, 0, 90, 0]);
    expect(sizes(r.file)).toEqual(['612x792', '612x792', '612x792', '792x612', '612x792', '792x612']);
  });

  it('decrypts an encrypted input with its password', async () => {
    const source = join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf');
    const r = await call('organize-pdf', [source], { plan: '20,1', password: 'user' });
    expect(encrypted(r.file)).toBe(false);
    expect(text(r.file, 1)).toBe(text(source, 20, 'user'));
    expect(text(r.file, 2)).toBe(text(source, 1, 'user'));
    const locked = await call('organize-pdf', [source], { plan: '1', password: 'nope' });
    expect(locked.error?.code).toBe('wrong_password');
  });

  it('refuses page 0, a page past the end, a plan of blanks only or one it cannot read, naming "plan"', async () => {
    const source = pdf('qpdf-11-pages.pdf');
    const cases: [string, RegExp][] = [
      ['0,1', /"plan".*page 0/],
      ['1,9999', /"plan".*11 pages/],
      ['blank,blank', /"plan".*at least one page/],
      ['1;2', /plan/i],
      ['3r45', /plan/i],
      ['', /plan/i],
    ];
    for (const [plan, message] of cases) {
      const r = await call('organize-pdf', [source], { plan });
      expect(r.status, plan).toBe(400);
      expect(r.error, plan).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(message) });
    }
    const none = await call('organize-pdf', [source]);
    expect(none.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/plan/) });
  });
});
