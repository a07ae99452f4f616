import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck } from '../lib/pdf.ts';

const source = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');

const pageText = (file: string, page: number) =>
  execFileSync('pdftotext', ['-f', String(page), '-l', String(page), file, '-'])
    .toString()
    .trim();
const rotations = (file: string) =>
  [
    ...execFileSync('pdfinfo', ['-f', '1', '-l', '999', file])
      .toString()
      .matchAll(/rot:\s+(\d+)/g),
  ].map((m) => Number(m[1]));

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('organize-pdf', () => {
  it('gives the pages of the plan, in order, turned and with a blank, through nginx and the gateway', async () => {
    const { path, res } = await runTool(base, 'organize-pdf', [source], { plan: '3,1-2,5r90,blank,2' });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(qpdfCheck(path)).toBe(0);
    expect(pageCount(path)).toBe(6);
    expect([1, 2, 3, 4, 6].map((p) => pageText(path, p))).toEqual(
      [3, 1, 2, 5, 2].map((n) => expect.stringContaining(`Original page ${n}`)),
    );
    expect(pageText(path, 5)).toBe('');
    expect(rotations(path)).toEqual([0, 0, 0, 90, 0, 0]);
  });

  it('refuses page 0 and a page past the end with a 400 naming the plan', async () => {
    for (const plan of ['0,1', '1,9999']) {
      const r = await post(`${base}/api/v1/tools/organize-pdf`, [source], { plan });
      expect(r.status, plan).toBe(400);
      expect(r.body.error?.code).toBe('invalid_option');
      expect(r.body.error?.message).toContain('plan');
    }
  });
});
