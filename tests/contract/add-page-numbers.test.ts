import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck, text, words } from '../lib/pdf.ts';

const eleven = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');
const sorted = (s: string) => words(s).sort();

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('add-page-numbers', () => {
  it('numbers the chosen pages through nginx and the gateway, the other pages and the text kept', async () => {
    const { path, res } = await runTool(base, 'add-page-numbers', [eleven], {
      pages: '2-3',
      format: 'page-of-total',
      position: 'top-right',
    });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(qpdfCheck(path)).toBe(0);
    expect(pageCount(path)).toBe(11);
    expect(sorted(text(path, { first: 2, last: 2 }))).toEqual(
      sorted(`${text(eleven, { first: 2, last: 2 })} Page 1 of 2`),
    );
    expect(text(path, { first: 3, last: 3 })).toContain('Page 2 of 2');
    expect(text(path, { first: 4, last: 11 })).toBe(text(eleven, { first: 4, last: 11 }));
  });

  it('refuses pages past the end, naming the field', async () => {
    const r = await post(`${base}/api.php?tool=add-page-numbers`, [eleven], { pages: '5-12' });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_option');
    expect(r.body.error?.message).toContain('"pages"');
  });
});
