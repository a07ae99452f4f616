import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { info, isEncrypted, pageCount, qpdfCheck, rotations, text, words } from '../lib/pdf.ts';

const pdf = (name: string) => join(corpusDir, 'pdf', name);
const eleven = pdf('qpdf-11-pages.pdf');
const four = pdf('pypdf-pdflatex-4-pages.pdf');

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

const run = (tool: string, files: string[], fields: Record<string, string> = {}) => runTool(base, tool, files, fields);

function unzip(path: string): Promise<{ name: string; file: string }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'unzip-'));
  execFileSync('python3', [
    '-c',
    'import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
    path,
    dir,
  ]);
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: false }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => names.push(e.fileName));
      zip.on('end', () => resolve(names.map((name) => ({ name, file: join(dir, name) }))));
    });
  });
}

describe('pdf-merge', () => {
  it('joins files in the order sent, keeping every page and its text', async () => {
    const { path, res, download: name } = await run('pdf-merge', [eleven, four]);
    expect(name).toMatch(/^[0-9a-f]{32}-.+\.pdf$/);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(qpdfCheck(path)).toBe(0);
    expect(pageCount(path)).toBe(15);
    expect(words(text(path, { first: 1, last: 11 }))).toEqual(words(text(eleven)));
    expect(words(text(path, { first: 12, last: 15 }))).toEqual(words(text(four)));
    // The other order gives the other document first.
    const reversed = await run('pdf-merge', [four, eleven]);
    expect(words(text(reversed.path, { first: 1, last: 4 }))).toEqual(words(text(four)));
  });
});

describe('pdf-split', () => {
  it('gives one PDF per page by default', async () => {
    const { path, res } = await run('pdf-split', [four]);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const parts = await unzip(path);
    expect(parts).toHaveLength(4);
    for (const [i, part] of parts.entries()) {
      expect(pageCount(part.file)).toBe(1);
      expect(words(text(part.file))).toEqual(words(text(four, { first: i + 1, last: i + 1 })));
    }
  });

  it('follows the ranges given, open ends included', async () => {
    const { path } = await run('pdf-split', [eleven], { ranges: '1-3,4,5-' });
    const parts = await unzip(path);
    expect(parts.map((p) => pageCount(p.file))).toEqual([3, 1, 7]);
  });

  it('refuses ranges past the end, naming the field', async () => {
    const r = await post(`${base}/api.php?tool=pdf-split`, [four], { ranges: '2-9' });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_option');
    expect(r.body.error?.message).toContain('ranges');
  });
});

describe('rotate-pdf', () => {
  it('turns every page 90° clockwise by default, on top of inherited rotation', async () => {
    const src = pdf('qpdf-inherited-rotate.pdf');
    const before = rotations(src);
    const { path } = await run('rotate-pdf', [src]);
    expect(rotations(path)).toEqual(before.map((r) => (r + 90) % 360));
    expect(words(text(path)).sort()).toEqual(words(text(src)).sort());
  });

  it('turns only the pages asked for, by the angle asked for', async () => {
    const before = rotations(eleven);
    const { path } = await run('rotate-pdf', [eleven], { angle: '180', pages: '2-3' });
    expect(rotations(path)).toEqual(before.map((r, i) => (i === 1 || i === 2 ? (r + 180) % 360 : r)));
  });
});

describe('pdf-page-remove', () => {
  it('removes exactly the pages named and keeps the rest in order', async () => {
    const { path } = await run('pdf-page-remove', [eleven], { pages: '2,4-6' });
    expect(pageCount(path)).toBe(7);
    const kept = [1, 3, 7, 8, 9, 10, 11].map((p) => text(eleven, { first: p, last: p })).join('');
    expect(words(text(path))).toEqual(words(kept));
  });

  it('will not remove every page', async () => {
    const r = await post(`${base}/api.php?tool=pdf-page-remove`, [four], { pages: '1-' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_option' });
    expect(r.body.error?.message).toContain('pages');
  });
});

describe('add-watermark', () => {
  it('stamps CONFIDENTIAL on every page and removes no text', async () => {
    const src = four;
    const { path } = await run('add-watermark', [src]);
    expect(pageCount(path)).toBe(4);
    for (let p = 1; p <= 4; p++) {
      const page = text(path, { first: p, last: p });
      expect(page).toContain('CONFIDENTIAL');
      const original = words(text(src, { first: p, last: p }));
      const now = new Set(words(page));
      expect(original.filter((w) => !now.has(w))).toEqual([]);
    }
  });

  it('uses the text asked for, also under its alias', async () => {
    const { path } = await run('watermark-pdf', [pdf('pypdf-minimal-document.pdf')], {
      text: 'DRAFT 7',
      position: 'center',
    });
    expect(text(path)).toContain('DRAFT 7');
  });
});

describe('pdf-unlock', () => {
  it('really decrypts with the user password', async () => {
    const src = join(corpusDir, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf');
    const { path } = await run('pdf-unlock', [src], { password: 'user' });
    expect(isEncrypted(path)).toBe(false);
    expect(pageCount(path)).toBe(20);
    expect(words(text(path))).toEqual(words(text(src, { password: 'user' })));
  });

  it('needs no password for an owner-password-only file', async () => {
    const src = join(corpusDir, 'pdf-encrypted/qpdf-rc4-128-R3-owner-only.pdf');
    const { path } = await run('pdf-unlock', [src]);
    expect(isEncrypted(path)).toBe(false);
    expect(pageCount(path)).toBe(30);
  });

  it('asks for the password, and says when it is wrong', async () => {
    const src = join(corpusDir, 'pdf-encrypted/pdfminer-aes-256.pdf');
    const none = await post(`${base}/api.php?tool=pdf-unlock`, [src]);
    expect(none.status).toBe(400);
    expect(none.body.error?.code).toBe('password_required');
    const wrong = await post(`${base}/api.php?tool=pdf-unlock`, [src], { password: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.code).toBe('wrong_password');
  });
});

describe('pdf-compress', () => {
  it.each(['pypdf-imagemagick-images.pdf', 'pdfjs-tracemonkey.pdf', 'qpdf-small-images.pdf', 'pypdf-cmyk-image.pdf'])(
    '%s: never larger, same pages, same text, opens',
    async (name) => {
      const src = pdf(name);
      for (const level of ['low', 'recommended', 'extreme']) {
        const { path, properties } = await run('pdf-compress', [src], { level });
        expect(statSync(path).size).toBeLessThanOrEqual(statSync(src).size);
        expect(pageCount(path)).toBe(pageCount(src));
        expect([0, 3]).toContain(qpdfCheck(path));
        expect(properties.pages).toBe(pageCount(src));
      }
    },
  );
});

describe('pdf-metadata-cleaner', () => {
  it('removes the document information and XMP metadata', async () => {
    const src = pdf('pypdf-xmp-metadata.pdf');
    expect(info(src)).toMatchObject({ 'Metadata Stream': 'yes' });
    expect(info(src).CreationDate).toBeDefined();
    const { path } = await run('pdf-metadata-cleaner', [src]);
    const after = info(path);
    for (const key of ['Title', 'Author', 'Subject', 'Keywords', 'Creator', 'Producer', 'CreationDate', 'ModDate']) {
      expect(after[key], key).toBeUndefined();
    }
    expect(after['Metadata Stream']).toBe('no');
    const raw = execFileSync('qpdf', ['--qdf', '--object-streams=disable', path, '-']).toString('latin1');
    expect(raw).not.toMatch(/xmpmeta|\/PieceInfo|\/Producer|\/Author/);
    expect(pageCount(path)).toBe(pageCount(src));
    expect(words(text(path))).toEqual(words(text(src)));
  });
});
