/**
 * Images to PDF and PDF to images through the whole stack (nginx, gateway, image service).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
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

  it('refuses the pixel bomb with a clear 422', async () => {
    const bomb = await post(`${base}/api.php?tool=image-to-pdf`, [image('sharp-65536x65536-uint32-limit.png')]);
    expect(bomb.status).toBe(422);
    expect(bomb.body.error?.code).toBe('damaged_input');
    // Judged from its header, which gives the size; that this costs next to nothing is measured in the
    // image service's own tests, in CPU time, which a busy machine does not stretch as it does the clock.
    expect(bomb.body.error?.message).toContain('65536×65536 pixels');
  });
});

describe('AVIF, WebP and TIFF through both image tools', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contract-images-'));
  const save = (name: string, data: Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  };
  const solid = (width: number, height: number, background: string) =>
    sharp({ create: { width, height, channels: 3, background } });

  /** The RGB of a page's pixel, rendered one pixel a point. */
  function pixel(path: string, page: number, x: number, y: number): number[] {
    const ppm = execFileSync('pdftoppm', [
      '-r',
      '72',
      '-f',
      String(page),
      '-l',
      String(page),
      '-x',
      String(x),
      '-y',
      String(y),
      '-W',
      '1',
      '-H',
      '1',
      path,
    ]);
    return [...ppm.subarray(ppm.length - 3)];
  }
  const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]!) <= 6);

  it.each(['image-to-pdf', 'jpg-to-pdf'])(
    '%s: an AVIF, a transparent WebP and a multi-page TIFF, one page each and per TIFF page, transparency on white',
    async (tool) => {
      const avif = save('wide.avif', await solid(80, 40, '#ff0000').avif().toBuffer());
      // Left half opaque blue, right half transparent over black samples.
      const rgba = Buffer.alloc(40 * 40 * 4);
      for (let i = 0; i < 40 * 40; i++) if (i % 40 < 20) rgba.set([0, 0, 255, 255], i * 4);
      const webp = save(
        'half.webp',
        await sharp(rgba, { raw: { width: 40, height: 40, channels: 4 } })
          .webp({ lossless: true })
          .toBuffer(),
      );
      const frames = await Promise.all(['#00ff00', '#0000ff'].map((c) => solid(20, 40, c).png().toBuffer()));
      const tiff = save(
        'two.tiff',
        await sharp(frames, { join: { animated: true } })
          .tiff()
          .toBuffer(),
      );
      const { path, download: name } = await run(tool, [avif, webp, tiff]);
      expect(name).toMatch(/-wide\.pdf$/);
      expect(qpdfCheck(path)).toBe(0);
      expect(pageSizes(path)).toEqual(['80 x 40', '40 x 40', '20 x 40', '20 x 40']);
      const red = pixel(path, 1, 40, 20);
      expect(red[0]).toBeGreaterThan(230);
      expect(red[1]! + red[2]!).toBeLessThan(40);
      expect(pixel(path, 2, 30, 20)).toEqual([255, 255, 255]); // transparent: white, not black
      expect(near(pixel(path, 2, 10, 20), [0, 0, 255])).toBe(true);
      expect(near(pixel(path, 3, 10, 20), [0, 255, 0])).toBe(true);
      expect(near(pixel(path, 4, 10, 20), [0, 0, 255])).toBe(true);
    },
  );

  it('the corpus AVIF converts', async () => {
    const { path } = await run('image-to-pdf', [image('pillow-hopper.avif')]);
    expect(pageSizes(path)).toEqual(['128 x 128']);
  });

  it('answers bad images with a clear 4xx: cut, text named .avif, HEIC, a header claiming too many pixels', async () => {
    const avif = await sharp(image('sharp-Landscape_1.jpg')).resize(200).avif().toBuffer();
    const cut = await post(`${base}/api.php?tool=jpg-to-pdf`, [save('cut.avif', avif.subarray(0, avif.length / 2))]);
    expect(cut.status).toBe(422);
    expect(cut.body.error).toMatchObject({
      code: 'damaged_input',
      message: '"cut.avif" could not be read as an AVIF image.',
    });

    const text = await post(`${base}/api.php?tool=jpg-to-pdf`, [
      save('text.avif', Buffer.from('not an image\n'.repeat(40))),
    ]);
    expect(text.status).toBe(415);
    expect(text.body.error?.code).toBe('unsupported_type');
    expect(text.body.error?.message).toContain('AVIF');

    const heic = Buffer.from(avif);
    heic.write('heic', 8, 'latin1');
    for (let at = 16; at < heic.readUInt32BE(0); at += 4) heic.write('mif1', at, 'latin1');
    const photo = await post(`${base}/api.php?tool=image-to-pdf`, [save('IMG_0001.HEIC', heic)]);
    expect(photo.status).toBe(415);
    expect(photo.body.error?.code).toBe('unsupported_type');
    expect(photo.body.error?.message).toContain('is a HEIC image');

    const bomb = Buffer.from(avif);
    const ispe = bomb.indexOf('ispe');
    bomb.writeUInt32BE(100_000, ispe + 8);
    bomb.writeUInt32BE(100_000, ispe + 12);
    const big = await post(`${base}/api.php?tool=image-to-pdf`, [save('bomb.avif', bomb)]);
    expect(big.status).toBe(422);
    expect(big.body.error?.message).toContain('100000×100000 pixels');
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
