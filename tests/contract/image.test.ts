/**
 * Images to PDF and PDF to images through the whole stack (nginx, gateway, image service).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck } from '../lib/pdf.ts';

const image = (name: string) => join(corpusDir, 'images', name);

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

const run = (tool: string, files: string[], fields: Record<string, string> = {}) => runTool(base, tool, files, fields);

/** Each page's size in points, from pdfinfo. */
function pageSizes(path: string): string[] {
  const out = execFileSync('pdfinfo', ['-f', '1', '-l', '1000', path]).toString();
  return [...out.matchAll(/^Page\s+\d+ size:\s+([\d.]+ x [\d.]+)/gm)].map((m) => m[1]!);
}

/** A ZIP's entries in order, with the pixel size a PNG's or JPEG's header gives. */
function zipEntries(path: string): Promise<{ name: string; width: number; height: number }[]> {
  const size = (b: Buffer): [number, number] => {
    if (b.subarray(1, 4).toString('latin1') === 'PNG') return [b.readUInt32BE(16), b.readUInt32BE(20)];
    for (let i = 2; i < b.length;) {
      const marker = b[i + 1]!;
      if (marker >= 0xc0 && marker <= 0xc2) return [b.readUInt16BE(i + 7), b.readUInt16BE(i + 5)];
      i += 2 + b.readUInt16BE(i + 2);
    }
    return [0, 0];
  };
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(readFileSync(path), { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const entries: { name: string; width: number; height: number }[] = [];
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const [width, height] = size(Buffer.concat(chunks));
            entries.push({ name: entry.fileName, width, height });
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('image-to-pdf', () => {
  it('makes one page per image, in the order sent, each shaped as the image is shown', async () => {
    const files = [
      image('sharp-Landscape_1.jpg'),
      image('sharp-Portrait_6.jpg'),
      image('pillow-hopper.bmp'),
      image('pillow-multipage.tiff'),
    ];
    const { path, res, download: name } = await run('image-to-pdf', files);
    expect(name).toMatch(/^[0-9a-f]{32}-sharp-Landscape_1\.pdf$/);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(qpdfCheck(path)).toBe(0);
    // 600×450 at 72 dpi; the portrait one is stored 600×450 with EXIF orientation 6; 128 px BMP at
    // 96 dpi; a TIFF of three pages, 10, 10 and 20 px.
    expect(pageSizes(path)).toEqual(['600 x 450', '450 x 600', '96.0134 x 96.0134', '10 x 10', '10 x 10', '20 x 20']);
    const reversed = await run('image-to-pdf', [...files].reverse());
    expect(pageSizes(reversed.path)).toEqual([
      '10 x 10',
      '10 x 10',
      '20 x 20',
      '96.0134 x 96.0134',
      '450 x 600',
      '600 x 450',
    ]);
  });

  it('puts JPEGs in as they are, on A4 when asked', async () => {
    const file = image('sharp-Landscape_6.jpg');
    const { path } = await run('jpg-to-pdf', [file], { pageSize: 'a4' });
    expect(pageSizes(path)).toEqual(['841.89 x 595.276']);
    const images = execFileSync('qpdf', ['--show-pages', '--with-images', path]).toString();
    const object = /\/Im0: (\d+) 0 R/.exec(images)![1];
    const stream = execFileSync('qpdf', [`--show-object=${object}`, '--raw-stream-data', path]);
    expect(stream.equals(readFileSync(file))).toBe(true);
  });

  it('refuses the pixel bomb with a clear 422, and AVIF as a type it does not take', async () => {
    const bomb = await post(`${base}/api.php?tool=image-to-pdf`, [image('sharp-65536x65536-uint32-limit.png')]);
    expect(bomb.status).toBe(422);
    expect(bomb.body.error?.code).toBe('damaged_input');
    // Judged from its header, which gives the size; that this costs next to nothing is measured in the
    // image service's own tests, in CPU time, which a busy machine does not stretch as it does the clock.
    expect(bomb.body.error?.message).toContain('65536×65536 pixels');
    const avif = await post(`${base}/api.php?tool=image-to-pdf`, [image('pillow-hopper.avif')]);
    expect(avif.status).toBe(415);
    expect(avif.body.error?.code).toBe('unsupported_type');
  });
});

describe('pdf-to-images', () => {
  it('gives a ZIP with one PNG per page, named in order, sized for the dpi', async () => {
    const {
      path,
      res,
      download: name,
    } = await run('pdf-to-images', [join(corpusDir, 'pdf/qpdf-11-pages.pdf')], { dpi: '100' });
    expect(name).toMatch(/^[0-9a-f]{32}-qpdf-11-pages-images\.zip$/);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const entries = await zipEntries(path);
    expect(entries.map((e) => e.name)).toEqual(
      Array.from({ length: 11 }, (_, i) => `qpdf-11-pages-page-${String(i + 1).padStart(3, '0')}.png`),
    );
    // Letter, 8.5 × 11 in, at 100 dpi.
    expect(entries.every((e) => e.width === 850 && e.height === 1100)).toBe(true);
  });

  it('opens an encrypted PDF with its password and gives JPEGs', async () => {
    const file = join(corpusDir, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf');
    expect(pageCount(file, 'user')).toBe(20);
    const { path } = await run('pdf-to-images', [file], { password: 'user', format: 'jpg', dpi: '72' });
    const entries = await zipEntries(path);
    expect(entries).toHaveLength(20);
    expect(entries[19]).toEqual({ name: 'qpdf-20-pages-user-owner-page-020.jpg', width: 612, height: 792 });
    const locked = await post(`${base}/api.php?tool=pdf-to-images`, [file]);
    expect(locked.status).toBe(400);
    expect(locked.body.error?.code).toBe('password_required');
  });
});
