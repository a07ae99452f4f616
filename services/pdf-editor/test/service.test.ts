import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { Express } from 'express';
import request from 'supertest';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressionLevels } from '@quire/catalog';
import { greySimilarity, renderPage } from '@quire/service-kit';
import { hasMetadata } from './compress/images.ts';

const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const pdf = (name: string) => join(corpus, 'pdf', name);

const workRoot = mkdtempSync(join(tmpdir(), 'pdf-editor-work-'));
const scratch = mkdtempSync(join(tmpdir(), 'pdf-editor-test-'));
process.env.WORK_DIR = workRoot;
// Refused inputs are logged with their cause as warnings; the tests look at the answers instead.
process.env.LOG_LEVEL ??= 'error';

let app: Express;
beforeAll(async () => {
  app = (await import('./app.ts')).createApp();
});

afterAll(async () => {
  // Work directories are removed when each response closes; give the last ones a moment.
  for (let i = 0; i < 50 && readdirSync(workRoot).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  const left = readdirSync(workRoot);
  rmSync(workRoot, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
  expect(left).toEqual([]);
});

// ---------------------------------------------------------------------------------------------------
// Helpers: one call to the service, and looks at what it made with the usual command-line tools.

interface Reply {
  status: number;
  /** The result written to a scratch file (200 only). */
  file: string;
  props: Record<string, unknown>;
  name: string;
  error?: { code: string; message: string };
}

let made = 0;

async function call(tool: string, files: string[], fields: Record<string, string> = {}): Promise<Reply> {
  let req = request(app)
    .post(`/tools/${tool}`)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  for (const f of files) req = req.attach('file', f);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  const res = await req;
  const body = res.body as Buffer;
  if (res.status !== 200) {
    return { status: res.status, file: '', props: {}, name: '', error: JSON.parse(body.toString('utf8')).error };
  }
  const kind = String(res.headers['x-quire-output-kind']);
  const file = join(scratch, `out-${++made}.${kind === 'zip' ? 'zip' : 'pdf'}`);
  writeFileSync(file, body);
  return {
    status: 200,
    file,
    props: JSON.parse(String(res.headers['x-quire-properties'])),
    name: decodeURIComponent(String(res.headers['x-quire-output-name'])),
  };
}

/** The page count; qpdf exits 3 when it had to repair the file on the way. */
function pages(file: string): number {
  const r = spawnSync('qpdf', ['--show-npages', file]);
  expect([0, 3], r.stderr.toString()).toContain(r.status);
  return Number(r.stdout.toString().trim());
}

/** qpdf --check: 0 is clean; 3 is warnings only. */
function check(file: string): number {
  return spawnSync('qpdf', ['--check', file]).status ?? -1;
}

function text(file: string, page?: number, password?: string): string {
  const range = page ? ['-f', String(page), '-l', String(page)] : [];
  const pw = password ? ['-upw', password] : [];
  return execFileSync('pdftotext', [...range, ...pw, file, '-']).toString();
}

/** The /Rotate of each page as a viewer applies it. */
function rotations(file: string): number[] {
  const out = execFileSync('pdfinfo', ['-f', '1', '-l', '9999', file]).toString();
  return [...out.matchAll(/^Page\s+\d+\s+rot:\s+(\d+)/gm)].map((m) => Number(m[1]));
}

function encrypted(file: string): boolean {
  return !execFileSync('qpdf', ['--show-encryption', file]).toString().includes('File is not encrypted');
}

function info(file: string): string {
  return execFileSync('pdfinfo', [file]).toString();
}

function trailerId(file: string): string {
  return /\/ID\s*\[\s*<([0-9a-f]+)>/i.exec(execFileSync('qpdf', ['--show-object=trailer', file]).toString())?.[1] ?? '';
}

/** The entries of a zip, extracted to a folder, in archive order. */
async function unzip(file: string): Promise<{ name: string; path: string }[]> {
  const dir = join(scratch, `${basename(file)}.d`);
  mkdirSync(dir);
  return new Promise((resolve, reject) => {
    const entries: { name: string; path: string }[] = [];
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const path = join(dir, String(entries.length));
            writeFileSync(path, Buffer.concat(chunks));
            entries.push({ name: entry.fileName, path });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A page rendered in gray at a low resolution: width, height and one byte per pixel. */
function render(file: string, page: number): { width: number; height: number; pixels: Buffer } {
  const out = execFileSync('pdftoppm', ['-cropbox', '-gray', '-r', '24', '-f', String(page), '-l', String(page), file]);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(out.subarray(0, 40).toString('latin1'))!;
  return { width: Number(header[1]), height: Number(header[2]), pixels: out.subarray(header[0].length) };
}

/** Where two renderings of a page differ, as fractions of the page: the watermark's box as shown. */
function changedBox(before: string, after: string, page: number) {
  const a = render(before, page);
  const b = render(after, page);
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = y * a.width + x;
      if (Math.abs(a.pixels[i]! - b.pixels[i]!) > 24) {
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      }
    }
  }
  return {
    centerX: (x0 + x1 + 1) / 2 / a.width,
    centerY: (y0 + y1 + 1) / 2 / a.height,
    width: (x1 - x0 + 1) / a.width,
    height: (y1 - y0 + 1) / a.height,
  };
}

/** Runs `work` over items, `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

interface ManifestRow {
  path: string;
  user?: string;
  owner?: string;
  pages?: number;
}

function manifest(): ManifestRow[] {
  const [head, ...rows] = readFileSync(join(corpus, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const columns = head!.split('\t');
  return rows.map((row) => {
    const cells = Object.fromEntries(row.split('\t').map((v, i) => [columns[i], v]));
    const pw = Object.fromEntries(
      (cells.passwords ?? '')
        .split(';')
        .filter(Boolean)
        .map((kv: string) => {
          const [k, v] = kv.split(/=(.*)/s);
          return [k, v === '(empty)' ? '' : v];
        }),
    );
    const n = /(\d+) pages/.exec(cells.properties ?? '')?.[1];
    return { path: cells.path!, user: pw.user, owner: pw.owner, pages: n ? Number(n) : undefined };
  });
}

// ---------------------------------------------------------------------------------------------------

describe('health', () => {
  it('reports qpdf and Ghostscript', async () => {
    const res = await request(app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body.engines.qpdf).toMatch(/qpdf version/);
    expect(res.body.engines.ghostscript).toMatch(/^\d+\.\d+/);
  });
});

describe('pdf-merge', () => {
  it('joins the files in the order sent, decrypting those that need the password', async () => {
    const r = await call(
      'pdf-merge',
      [
        pdf('qpdf-11-pages.pdf'),
        pdf('pypdf-pdflatex-4-pages.pdf'),
        join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf'),
      ],
      { password: 'user' },
    );
    expect(r.status).toBe(200);
    expect(pages(r.file)).toBe(35);
    expect(r.props.pages).toBe(35);
    expect(check(r.file)).toBe(0);
    expect(encrypted(r.file)).toBe(false);
    expect(text(r.file, 1)).toContain('Original page 1');
    expect(text(r.file, 11)).toContain('Original page 11');
    expect(text(r.file, 12)).toBe(text(pdf('pypdf-pdflatex-4-pages.pdf'), 1));
    expect(text(r.file, 35)).toBe(text(join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf'), 20, 'user'));
  });

  it('asks for the password of an encrypted input', async () => {
    const r = await call('pdf-merge', [pdf('qpdf-11-pages.pdf'), join(corpus, 'pdf-encrypted/pdfminer-aes-128.pdf')]);
    expect(r.error?.code).toBe('password_required');
  });
});

describe('pdf-split', () => {
  it('makes one PDF per page by default, named after the input and the page', async () => {
    const r = await call('pdf-split', [pdf('pypdf-pdflatex-4-pages.pdf')]);
    expect(r.status).toBe(200);
    expect(r.name).toBe('pypdf-pdflatex-4-pages.zip');
    const entries = await unzip(r.file);
    expect(entries.map((e) => e.name)).toEqual([1, 2, 3, 4].map((n) => `pypdf-pdflatex-4-pages-p${n}.pdf`));
    for (const [i, e] of entries.entries()) {
      expect(pages(e.path)).toBe(1);
      expect(check(e.path)).toBe(0);
      expect(text(e.path)).toBe(text(pdf('pypdf-pdflatex-4-pages.pdf'), i + 1));
    }
  });

  it('keeps the pages in order past the ninth', async () => {
    const source = pdf('qpdf-c-object-streams.pdf');
    const r = await call('pdf-split', [source]);
    const entries = await unzip(r.file);
    expect(entries.map((e) => e.name)).toEqual(
      Array.from({ length: 30 }, (_, i) => `qpdf-c-object-streams-p${i + 1}.pdf`),
    );
    expect(r.props).toMatchObject({ files: 30, pages: 30 });
    for (const n of [1, 2, 9, 10, 11, 20, 30]) {
      expect(pages(entries[n - 1]!.path)).toBe(1);
      expect(text(entries[n - 1]!.path)).toBe(text(source, n));
    }
  });

  it('splits by the ranges asked for, an open range running to the end', async () => {
    const r = await call('pdf-split', [pdf('qpdf-11-pages.pdf')], { ranges: '1-3,4,5-' });
    const entries = await unzip(r.file);
    expect(entries.map((e) => e.name)).toEqual([
      'qpdf-11-pages-p1-3.pdf',
      'qpdf-11-pages-p4.pdf',
      'qpdf-11-pages-p5-11.pdf',
    ]);
    expect(entries.map((e) => pages(e.path))).toEqual([3, 1, 7]);
    expect(text(entries[2]!.path)).toMatch(/Original page 5[\s\S]*Original page 11/);
  });

  it('names the option and the page count when a range reaches past the end', async () => {
    const r = await call('pdf-split', [pdf('qpdf-11-pages.pdf')], { ranges: '1-3,12' });
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('invalid_option');
    expect(r.error?.message).toMatch(/"ranges"/);
    expect(r.error?.message).toMatch(/11 pages/);
    const backwards = await call('pdf-split', [pdf('qpdf-11-pages.pdf')], { ranges: '5-3' });
    expect(backwards.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"ranges"/) });
  });
});

describe('rotate-pdf', () => {
  it('turns every page clockwise from its current, even inherited, rotation', async () => {
    const r = await call('rotate-pdf', [pdf('qpdf-inherited-rotate.pdf')], { angle: '90' });
    expect(rotations(pdf('qpdf-inherited-rotate.pdf'))).toEqual([90]);
    expect(rotations(r.file)).toEqual([180]);
    expect(check(r.file)).toBe(0);
  });

  it('turns only the pages named', async () => {
    const source = pdf('qpdf-rotated-20-pages.pdf');
    const r = await call('rotate-pdf', [source], { angle: '270', pages: '1-3,20' });
    const before = rotations(source);
    const after = rotations(r.file);
    expect(after).toHaveLength(20);
    after.forEach((rot, i) => expect(rot).toBe([0, 1, 2, 19].includes(i) ? (before[i]! + 270) % 360 : before[i]));
    expect(r.props).toMatchObject({ pages: 20, rotated: 4 });
  });

  it('refuses an angle that is not a quarter turn, naming the field', async () => {
    const r = await call('rotate-pdf', [pdf('qpdf-11-pages.pdf')], { angle: '45' });
    expect(r.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"angle"/) });
  });
});

describe('pdf-page-remove', () => {
  it('removes the pages named and keeps the rest in order', async () => {
    const r = await call('pdf-page-remove', [pdf('qpdf-11-pages.pdf')], { pages: '2,4-6' });
    expect(pages(r.file)).toBe(7);
    expect(check(r.file)).toBe(0);
    const t = text(r.file);
    expect([...t.matchAll(/Original page (\d+)/g)].map((m) => Number(m[1]))).toEqual([1, 3, 7, 8, 9, 10, 11]);
  });

  it('refuses to remove every page, or a page that is not there', async () => {
    const all = await call('pdf-page-remove', [pdf('qpdf-11-pages.pdf')], { pages: '1-' });
    expect(all.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"pages"/) });
    const past = await call('pdf-page-remove', [pdf('qpdf-11-pages.pdf')], { pages: '3,12' });
    expect(past.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"pages".*11 pages/) });
    const none = await call('pdf-page-remove', [pdf('qpdf-11-pages.pdf')]);
    expect(none.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"pages"/) });
  });
});

describe('add-watermark', () => {
  it('stamps a stamp-sized page and a turned right-to-left page, keeping their text', async () => {
    // A 3.84-point page takes the text as small as it needs; a /Rotate 90 page of Arabic keeps its words.
    for (const name of ['pypdf-imagemagick-CCITTFaxDecode.pdf', 'pypdf-habibi-rotated.pdf']) {
      const r = await call('add-watermark', [pdf(name)]);
      expect(r.status, `${name}: ${JSON.stringify(r.error)}`).toBe(200);
      expect(text(r.file), name).toContain('CONFIDENTIAL');
    }
    expect(text(pdf('pypdf-habibi-rotated.pdf'))).toContain('habibi');
  });

  it('stamps extractable text on every page and keeps the original text', async () => {
    const source = pdf('pypdf-minimal-document.pdf');
    const r = await call('add-watermark', [source]);
    expect(r.status).toBe(200);
    expect(pages(r.file)).toBe(1);
    expect(check(r.file)).toBe(0);
    const t = text(r.file);
    expect(t).toContain('CONFIDENTIAL');
    expect(t).toContain('Lorem ipsum dolor sit amet');
    expect(info(r.file)).not.toMatch(/pdf-lib/);
    const box = changedBox(source, r.file, 1);
    expect(box.centerX).toBeCloseTo(0.5, 1);
    expect(box.centerY).toBeCloseTo(0.5, 1);
    expect(box.width).toBeGreaterThan(0.5); // diagonal: across the page both ways
    expect(box.height).toBeGreaterThan(0.5);
  });

  it('sits upright and in the middle of pages turned every way', async () => {
    const source = pdf('qpdf-rotated-20-pages.pdf');
    const r = await call('add-watermark', [source], { text: 'Draft copy', position: 'center', opacity: '0.5' });
    expect(r.status).toBe(200);
    expect(rotations(r.file)).toEqual(rotations(source));
    expect(new Set(rotations(source).slice(0, 4))).toEqual(new Set([0, 90, 180, 270]));
    for (let page = 1; page <= 4; page++) {
      expect(text(r.file, page)).toContain('Draft copy');
      const box = changedBox(source, r.file, page);
      expect(box.centerX).toBeCloseTo(0.5, 1);
      expect(box.centerY).toBeCloseTo(0.5, 1);
      expect(box.width).toBeGreaterThan(box.height * 3); // horizontal as shown
    }
  });

  it('stays inside the crop box, the part a viewer shows', async () => {
    const doc = await PDFDocument.load(readFileSync(pdf('qpdf-11-pages.pdf')), { updateMetadata: false });
    const { width, height } = doc.getPage(0).getMediaBox();
    doc.getPage(0).setCropBox(width / 2, height / 2, width / 2, height / 2);
    const cropped = join(scratch, 'cropped.pdf');
    writeFileSync(cropped, await doc.save());
    const r = await call('add-watermark', [cropped], { position: 'center' });
    const box = changedBox(cropped, r.file, 1);
    expect(box.centerX).toBeCloseTo(0.5, 1);
    expect(box.centerY).toBeCloseTo(0.5, 1);
    expect(box.width).toBeGreaterThan(0.5);
    expect(pages(r.file)).toBe(11);
  });

  it('refuses text the standard font cannot draw, naming the field', async () => {
    const r = await call('add-watermark', [pdf('pypdf-minimal-document.pdf')], { text: '機密 文書' });
    expect(r.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"text"/) });
  });

  it('draws Latin-1 text beyond ASCII', async () => {
    const r = await call('add-watermark', [pdf('qpdf-11-pages.pdf')], { text: 'Entwurf – für René' });
    expect(pages(r.file)).toBe(11);
    expect(text(r.file, 11)).toContain('Entwurf – für René');
  });
});

describe('pdf-unlock', () => {
  const rows = manifest().filter((r) => r.path.startsWith('pdf-encrypted/'));

  it('covers the encrypted corpus', () => {
    expect(rows.length).toBeGreaterThanOrEqual(15);
  });

  it('decrypts every encrypted file with its password, and answers the contract without it', async () => {
    await pool(rows, 4, async (row) => {
      const file = join(corpus, row.path);
      const password = row.user !== undefined && row.user !== '?' ? row.user : row.owner!;
      const ok = await call('pdf-unlock', [file], password === '' ? {} : { password });
      expect(ok.status, row.path).toBe(200);
      expect(encrypted(ok.file), row.path).toBe(false);
      expect(spawnSync('qpdf', ['--requires-password', ok.file]).status, row.path).toBe(2);
      expect(check(ok.file), row.path).toBe(0);
      if (row.pages) expect(pages(ok.file), row.path).toBe(row.pages);
      expect(ok.props, row.path).toMatchObject({ wasEncrypted: true });

      const opensWithout = row.user === '';
      const without = await call('pdf-unlock', [file]);
      if (opensWithout) expect(without.status, row.path).toBe(200);
      else expect(without.error?.code, row.path).toBe('password_required');

      const wrong = await call('pdf-unlock', [file], { password: 'not-the-password' });
      expect(wrong.error?.code, row.path).toBe('wrong_password');
    });
  });

  it('opens with the owner password too', async () => {
    const r = await call('pdf-unlock', [join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf')], {
      password: 'owner',
    });
    expect(encrypted(r.file)).toBe(false);
    expect(pages(r.file)).toBe(20);
  });

  it('needs no password for a file with only an owner password', async () => {
    const r = await call('pdf-unlock', [join(corpus, 'pdf-encrypted/qpdf-rc4-128-R3-owner-only.pdf')]);
    expect(r.status).toBe(200);
    expect(encrypted(r.file)).toBe(false);
    expect(pages(r.file)).toBe(30);
  });

  it('returns a valid copy of a file that was not encrypted', async () => {
    const r = await call('pdf-unlock', [pdf('qpdf-11-pages.pdf')]);
    expect(r.props).toMatchObject({ wasEncrypted: false, pages: 11 });
    expect(check(r.file)).toBe(0);
    expect(text(r.file)).toBe(text(pdf('qpdf-11-pages.pdf')));
  });
});

describe('pdf-compress', () => {
  it('never returns a larger file, keeps every page, and reports what it did', async () => {
    const runs = [
      ...['low', 'recommended', 'extreme'].map((level) => ({ f: 'pypdf-pdflatex-image.pdf', level })),
      ...['qpdf-11-pages.pdf', 'pdfminer-simple1.pdf', 'pypdf-cmyk-image.pdf'].map((f) => ({
        f,
        level: 'recommended',
      })),
    ];
    const sizes: Record<string, number> = {};
    await pool(runs, 3, async ({ f, level }) => {
      const source = pdf(f);
      const r = await call('pdf-compress', [source], { level });
      const what = `${f} ${level}`;
      expect(r.status, what).toBe(200);
      const size = statSync(r.file).size;
      sizes[`${f} ${level}`] = size;
      expect(size, what).toBeLessThanOrEqual(statSync(source).size);
      expect(r.props, what).toMatchObject({
        bytesBefore: statSync(source).size,
        bytesAfter: size,
        pages: pages(source),
      });
      expect(pages(r.file), what).toBe(pages(source));
      expect(check(r.file), what).toBe(0);
      if (r.props.candidate === 'original') expect(readFileSync(r.file).equals(readFileSync(source)), what).toBe(true);
      if (f === 'pypdf-pdflatex-image.pdf' && level === 'extreme') {
        expect(r.props.candidate).toMatch(/^(images|ghostscript|ghostscript\+images)$/);
      }
    });
    // An image-heavy file gets smaller, more so at a stronger level.
    const image = statSync(pdf('pypdf-pdflatex-image.pdf')).size;
    expect(sizes['pypdf-pdflatex-image.pdf extreme']).toBeLessThan(image * 0.8);
    expect(sizes['pypdf-pdflatex-image.pdf extreme']).toBeLessThanOrEqual(sizes['pypdf-pdflatex-image.pdf low']!);
  });

  it('keeps the pictures when Ghostscript fails on a file', async () => {
    const source = pdf('pypdf-cmyk-image.pdf');
    const r = await call('pdf-compress', [source]);
    expect(r.props.candidate).not.toBe('ghostscript');
    expect(execFileSync('pdfimages', ['-list', r.file]).toString()).toMatch(/756\s+1008/);
  });

  it('ends with a file that looks like the input where Ghostscript draws garbage', async () => {
    const source = pdf('pypdf-imagemagick-images.pdf');
    const r = await call('pdf-compress', [source]);
    expect(r.props.candidate).not.toBe('ghostscript');
    const job = { workdir: scratch, signal: new AbortController().signal, deadline: Date.now() + 60_000 };
    for (let page = 1; page <= pages(source); page++) {
      const [before, after] = await Promise.all([renderPage(source, page, 72, job), renderPage(r.file, page, 72, job)]);
      expect(greySimilarity(before, after), `page ${page}`).toBeGreaterThanOrEqual(compressionLevels.recommended.ssim);
    }
  });

  it("judges a stamp-sized page at 150 dpi too, where Ghostscript's rewrite moves its pixels", async () => {
    // At 72 dpi this 4-point page is 4×4 pixels and Ghostscript's rewrite renders alike; at 150 dpi it does not.
    const source = pdf('pypdf-imagemagick-CCITTFaxDecode.pdf');
    const job = { workdir: scratch, signal: new AbortController().signal, deadline: Date.now() + 60_000 };
    for (const level of ['recommended', 'extreme']) {
      const r = await call('pdf-compress', [source], { level });
      expect(r.props.candidate, level).not.toMatch(/ghostscript/);
      for (const dpi of [72, 150, 600]) {
        const [before, after] = await Promise.all([renderPage(source, 1, dpi, job), renderPage(r.file, 1, dpi, job)]);
        expect(greySimilarity(before, after), `${level} at ${dpi} dpi`).toBeCloseTo(1, 9);
      }
    }
  });

  it('adds no XMP metadata the original did not have, and keeps what it had', async () => {
    const job = { workdir: scratch, signal: new AbortController().signal, deadline: Date.now() + 60_000 };
    for (const [name, had] of [
      ['pypdf-habibi-rotated.pdf', false],
      ['pypdf-crazyones-pdfa.pdf', true],
    ] as const) {
      expect(await hasMetadata(pdf(name), job), name).toBe(had);
      const r = await call('pdf-compress', [pdf(name)]);
      expect(await hasMetadata(r.file, job), `${name} (${String(r.props.candidate)})`).toBe(had);
    }
  });

  it('keeps fillable form fields', async () => {
    const source = pdf('qpdf-sample-form.pdf');
    const r = await call('pdf-compress', [source], { level: 'extreme' });
    expect(statSync(r.file).size).toBeLessThan(statSync(source).size);
    expect(info(r.file)).toMatch(/Form:\s+AcroForm/);
  });

  it('keeps text extractable', async () => {
    const source = pdf('pypdf-minimal-document.pdf');
    const r = await call('pdf-compress', [source]);
    expect(text(r.file).replace(/\s+/g, ' ')).toContain('Lorem ipsum dolor sit amet');
  });
});

describe('pdf-metadata-cleaner', () => {
  it.each(['pypdf-xmp-metadata.pdf', 'pypdf-crazyones-pdfa.pdf', 'pdfjs-tracemonkey.pdf'])(
    'removes the document information, XMP and other identifying data from %s',
    async (name) => {
      const source = pdf(name);
      const r = await call('pdf-metadata-cleaner', [source]);
      expect(r.status).toBe(200);
      const before = info(source);
      const after = info(r.file);
      expect(before).toMatch(/^(Producer|Creator|CreationDate|Metadata Stream:\s+yes)/m);
      for (const key of ['Title', 'Subject', 'Keywords', 'Author', 'Creator', 'Producer', 'CreationDate', 'ModDate']) {
        expect(after).not.toMatch(new RegExp(`^${key}:`, 'm'));
      }
      expect(after).toMatch(/Metadata Stream:\s+no/);
      expect(pages(r.file)).toBe(pages(source));
      expect(check(r.file)).toBe(0);
      expect(text(r.file)).toBe(text(source));
      const id = trailerId(r.file);
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(id).not.toBe(trailerId(source));
      // Nothing identifying is left anywhere, once streams are decompressed.
      const qdf = execFileSync('qpdf', ['--qdf', '--object-streams=disable', r.file, '-'], {
        maxBuffer: 1 << 28,
      }).toString('latin1');
      expect(qdf).not.toMatch(/\/Metadata|\/PieceInfo|\/PTEX\.|\/Producer|x:xmpmeta/);
    },
  );

  it('keeps the page tree when the trailer names it as /Info', async () => {
    // The trailer's /Info is 2 0 R, which is also the catalog's /Pages.
    const source = pdf('pypdf-cmyk-image.pdf');
    expect(execFileSync('qpdf', ['--show-object=trailer', source]).toString()).toMatch(/\/Info 2 0 R/);
    expect(execFileSync('qpdf', ['--show-object=1', source]).toString()).toMatch(/\/Pages 2 0 R/);
    const r = await call('pdf-metadata-cleaner', [source]);
    expect(r.status).toBe(200);
    expect(pages(r.file)).toBe(1);
    expect([0, 3]).toContain(check(r.file));
    expect(info(r.file)).not.toMatch(/^(Producer|Creator|CreationDate):/m);
  });

  it('gives a different /ID each time', async () => {
    const a = await call('pdf-metadata-cleaner', [pdf('qpdf-11-pages.pdf')]);
    const b = await call('pdf-metadata-cleaner', [pdf('qpdf-11-pages.pdf')]);
    expect(trailerId(a.file)).not.toBe(trailerId(b.file));
  });
});

describe('damaged and mislabelled inputs', () => {
  const broken = readdirSync(join(corpus, 'pdf-broken')).map((f) => join(corpus, 'pdf-broken', f));
  const runs: [string, string[], Record<string, string>][] = [
    ['pdf-split', [], {}],
    ['rotate-pdf', [], {}],
    ['pdf-page-remove', [], { pages: '1' }],
    ['add-watermark', [], {}],
    ['pdf-unlock', [], {}],
    ['pdf-compress', [], {}],
    ['pdf-metadata-cleaner', [], {}],
    ['pdf-merge', [pdf('pdfminer-simple1.pdf')], {}],
  ];

  it.each(runs)('%s gives a good result or a 4xx contract error, never a 5xx', async (tool, extra, fields) => {
    await pool(broken, 4, async (file) => {
      const r = await call(tool, [file, ...extra], fields);
      const what = `${tool} ${basename(file)}: ${JSON.stringify(r.error)}`;
      expect([200, 415, 422, 400], what).toContain(r.status);
      if (r.status === 400) {
        // Only a page that is not there: a repaired one-page file has nothing left to remove.
        expect(r.error?.code, what).toBe('invalid_option');
        expect(tool, what).toBe('pdf-page-remove');
      }
      if (r.status === 415) expect(r.error?.code, what).toBe('unsupported_type');
      if (r.status === 422) expect(r.error?.code, what).toBe('damaged_input');
      if (r.status !== 200) return;
      const outputs = tool === 'pdf-split' ? (await unzip(r.file)).map((e) => e.path) : [r.file];
      expect(outputs.length, what).toBeGreaterThan(0);
      for (const out of outputs) {
        expect([0, 3], what).toContain(check(out));
        expect(pages(out), what).toBeGreaterThan(0);
      }
    });
  });
});

describe('a catalog pdf-lib cannot take for one', () => {
  it.each(['add-watermark', 'pdf-metadata-cleaner'])('%s answers damaged_input, not a 500', async (tool) => {
    // qpdf keeps a catalog whose /Type is mangled; pdf-lib loads it and fails only when asked for pages.
    const qdf = execFileSync('qpdf', ['--qdf', '--object-streams=disable', pdf('pypdf-minimal-document.pdf'), '-']);
    const mangled = join(scratch, 'mangled-catalog.pdf');
    writeFileSync(mangled, Buffer.from(qdf.toString('latin1').replace('/Type /Catalog', '/Type /Catalgg'), 'latin1'));
    const r = await call(tool, [mangled]);
    expect(r.status).toBe(422);
    expect(r.error?.code).toBe('damaged_input');
  });
});

describe('a page tree that claims four billion pages and holds four', () => {
  // The corpus file as qpdf's QDF, its /Count raised and its offsets fixed again by fix-qdf.
  const liar = join(scratch, 'liar.pdf');
  beforeAll(() => {
    const qdf = execFileSync('qpdf', ['--qdf', '--object-streams=disable', pdf('pypdf-pdflatex-4-pages.pdf'), '-']);
    const raised = Buffer.from(qdf.toString('latin1').replace('/Count 4', '/Count 4294967295'), 'latin1');
    writeFileSync(liar, execFileSync('fix-qdf', { input: raised }));
    expect(pages(liar)).toBe(4294967295);
  });

  it.each([
    ['rotate-pdf', {}],
    ['rotate-pdf', { pages: '2-3' }],
    ['pdf-unlock', {}],
    ['pdf-metadata-cleaner', {}],
    ['pdf-compress', {}],
  ] as const)('%s %j returns a file that claims the four it holds', async (tool, fields) => {
    const r = await call(tool, [liar], fields);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect([0, 3]).toContain(check(r.file));
    expect(pages(r.file)).toBe(4);
    expect(r.props.pages).toBe(4);
    expect(text(r.file, 4)).toBe(text(pdf('pypdf-pdflatex-4-pages.pdf'), 4));
  });
});

describe('requests the contract refuses', () => {
  it('refuses a tool of another service', async () => {
    const r = await call('pdf-to-word', [pdf('qpdf-11-pages.pdf')]);
    expect(r.status).toBe(404);
    expect(r.error?.code).toBe('unknown_tool');
  });

  it('refuses a file that is not a PDF', async () => {
    const r = await call('rotate-pdf', [join(corpus, 'pdf-broken/renamed-png-as.pdf')]);
    expect(r.error?.code).toBe('unsupported_type');
  });
});
