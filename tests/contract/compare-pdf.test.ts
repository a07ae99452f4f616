import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck, text } from '../lib/pdf.ts';

const eleven = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');
const twenty = join(corpusDir, 'pdf-encrypted', 'qpdf-20-pages-user-owner.pdf');

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('compare-pdf', () => {
  it('reports two different documents page by page, with both versions on each page, through nginx and the gateway', async () => {
    const { path, res, properties } = await runTool(base, 'compare-pdf', [eleven, twenty], { password: 'user' });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(qpdfCheck(path)).toBe(0);
    expect(pageCount(path)).toBe(20);
    expect(properties).toMatchObject({ firstPages: 11, secondPages: 20, identical: false, pages: 20 });
    expect(properties.wordsAdded).toBeGreaterThan(0);
    const first = text(path, { first: 1, last: 1 });
    expect(first).toMatch(/^Page 1: \d+ words removed or changed, \d+ added or changed/);
    expect(first).toContain('Original page 1');
    expect(text(path, { first: 15, last: 15 })).toContain('(no such page)');
  });

  it('says two copies of a document are the same, by their words and by their look', async () => {
    const { properties } = await runTool(base, 'compare-pdf', [eleven, eleven]);
    expect(properties).toMatchObject({ identical: true, changes: 0, pagesChanged: 0 });
    const looks = await runTool(base, 'compare-pdf', [eleven, eleven], { compareBy: 'looks' });
    expect(looks.properties).toMatchObject({ identical: true, areasChanged: 0, pagesChanged: 0 });
    expect(text(looks.path, { first: 4, last: 4 })).toMatch(/^Page 4: no change/);
  });

  it('asks for the password of a protected version, and for a second file', async () => {
    const asked = await post(`${base}/api/v1/tools/compare-pdf`, [eleven, twenty]);
    expect(asked.body.error?.code).toBe('password_required');
    const one = await post(`${base}/api/v1/tools/compare-pdf`, [eleven]);
    expect(one.body.error?.code).toBe('too_few_files');
  });
});
