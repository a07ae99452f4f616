import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck } from '../lib/pdf.ts';

const source = join(corpusDir, 'pdf', 'pdfminer-simple1.pdf');

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('pdf-to-pdfa', () => {
  it('answers a PDF with a PDF/A-2b copy, its fonts embedded, through nginx and the gateway', async () => {
    const { path, res } = await runTool(base, 'pdf-to-pdfa', [source], {});
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(qpdfCheck(path)).toBe(0);
    // The source's cross-reference table is damaged (qpdf mends it with a warning): one page.
    expect(pageCount(path)).toBe(1);
    expect(execFileSync('pdfinfo', ['-meta', path]).toString()).toMatch(/pdfaid:part='2'/);
    expect(execFileSync('pdffonts', [path]).toString()).toMatch(/Helvetica.*\byes\b/);
    expect(execFileSync('pdftotext', [path, '-']).toString()).toContain('Hello');
  });
});
