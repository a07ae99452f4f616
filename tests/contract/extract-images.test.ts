import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';

const pdf = (name: string) => join(corpusDir, 'pdf', name);

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('extract-images', () => {
  it('answers a zip of the PDF’s images through nginx and the gateway, JPEGs as stored', async () => {
    const file = pdf('pypdf-imagemagick-images.pdf');
    const { path, res, properties } = await runTool(base, 'extract-images', [file]);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const names = execFileSync('unzip', ['-Z1', path]).toString().trim().split('\n');
    expect(names).toEqual([
      'page-001-image-01.png',
      'page-002-image-01.png',
      'page-003-image-01.png',
      'page-004-image-01.jpg',
      'page-005-image-01.png',
      'page-006-image-01.png',
    ]);
    expect(properties).toMatchObject({ images: 6, jpeg: 1, png: 5 });
    // Each entry decodes to the size pdfimages lists for it.
    for (const name of names) {
      const meta = await sharp(execFileSync('unzip', ['-p', path, name])).metadata();
      expect([meta.format, meta.width, meta.height], name).toEqual([name.endsWith('.jpg') ? 'jpeg' : 'png', 16, 16]);
    }
  });

  it('takes an encrypted PDF with its password', async () => {
    const file = join(corpusDir, 'pdf-encrypted', 'pdfplumber-password-example.pdf');
    const { path } = await runTool(base, 'extract-images', [file], { password: 'test' });
    const listed = execFileSync('pdfimages', ['-list', '-upw', 'test', file]).toString().trim().split('\n').length - 2;
    expect(execFileSync('unzip', ['-Z1', path]).toString().trim().split('\n')).toHaveLength(listed);
  });

  it('refuses a PDF without images, naming why', async () => {
    const r = await post(`${base}/api.php?tool=extract-images`, [pdf('pdfminer-simple1.pdf')]);
    expect(r.status).toBe(415);
    expect(r.body.error).toMatchObject({
      code: 'unsupported_type',
      message: 'This PDF has no embedded images to extract.',
    });
  });
});
