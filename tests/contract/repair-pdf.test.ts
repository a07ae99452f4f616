import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck, text } from '../lib/pdf.ts';

const broken = (name: string) => join(corpusDir, 'pdf-broken', name);

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('repair-pdf', () => {
  it('rebuilds a damaged PDF into a clean one and says what was wrong, through nginx and the gateway', async () => {
    const { path, res, properties } = await runTool(base, 'repair-pdf', [broken('qpdf-pages-loop.pdf')]);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(qpdfCheck(path)).toBe(0);
    expect(pageCount(path)).toBe(1);
    expect(text(path)).toContain('Potato');
    expect(properties).toMatchObject({
      engine: 'qpdf',
      damaged: true,
      repairs: ['the page tree was mended'],
      checks: ['opens', 'clean', 'pages', 'text', 'pixels'],
    });
  });

  it('takes a PDF whose trailer is lost, which only Ghostscript reads', async () => {
    const { path, properties } = await runTool(base, 'repair-pdf', [broken('pdfjs-bug1250079-garbage-trailer.pdf')]);
    expect(qpdfCheck(path)).toBe(0);
    expect(text(path)).toContain('Bug 1250079');
    expect(properties).toMatchObject({ engine: 'ghostscript' });
  });

  it('refuses a file that holds no PDF, in the contract shape', async () => {
    const r = await post(`${base}/api/v1/tools/repair-pdf`, [broken('renamed-png-as.pdf')]);
    expect(r.status).toBe(415);
    expect(r.body.error?.code).toBe('unsupported_type');
    expect(r.body.error?.message).toContain('nothing to repair');
  });
});
