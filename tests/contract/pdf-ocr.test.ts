import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { download, post, runTool } from '../lib/http.ts';

/** The corpus scan's first page: OCR is slow, one page shows the chain. */
const scan = join(mkdtempSync(join(tmpdir(), 'pdf-ocr-contract-')), 'scan-page-1.pdf');
execFileSync('qpdf', ['--empty', '--pages', join(corpusDir, 'pdf', 'textract-ocr_text-scanned.pdf'), '1', '--', scan]);
const image = join(corpusDir, 'images', 'textract-raw_text.png');
const text = (file: string) => execFileSync('pdftotext', ['-q', '-enc', 'UTF-8', file, '-']).toString();

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('pdf-ocr', () => {
  it('makes an image searchable through nginx and the gateway, and says what it read', async () => {
    const { path, res, properties } = await runTool(base, 'pdf-ocr', [image], { language: 'eng+spa' });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(properties).toMatchObject({ pages: 1, ocrPages: [1], pagesWithoutText: [], language: 'eng+spa' });
    expect(text(path)).toMatch(/abcdefghijkl/);
  });

  it('chains into pdf-to-word in a workflow: the scan comes out as editable words', async () => {
    const r = await post(`${base}/api.php?workflow=custom&steps=pdf-ocr,pdf-to-word`, [scan]);
    expect(r.status).toBe(200);
    const { path } = await download(base, r.body.download!);
    const py = 'import sys, zipfile\nsys.stdout.write(zipfile.ZipFile(sys.argv[1]).read("word/document.xml").decode())';
    const doc = execFileSync('python3', ['-c', py, path]).toString();
    expect(doc).toContain('ANNOUNCEMENT');
  });

  it('answers contract errors: an unknown language by name, a file of another kind', async () => {
    const lang = await post(`${base}/api.php?tool=pdf-ocr`, [image], { language: 'xx' });
    expect(lang.status).toBe(400);
    expect(lang.body.error?.code).toBe('invalid_option');
    expect(lang.body.error?.message).toContain('"xx"');
    const other = await post(`${base}/api.php?tool=pdf-ocr`, [join(corpusDir, 'images', 'pillow-hopper.bmp')]);
    expect(other.status).toBe(415);
    expect(other.body.error?.code).toBe('unsupported_type');
  });
});
