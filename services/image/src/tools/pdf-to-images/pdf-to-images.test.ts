import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { limits } from '../../config.ts';
import { call, corpus, renderPng, result, scratchFile, unzip } from '../../../test/helpers.ts';
import { useImageService } from '../../../test/use-image.ts';

const app = useImageService();

const pdf = (name: string) => join(corpus, 'pdf', name);
const encrypted = (name: string) => join(corpus, 'pdf-encrypted', name);

/** Each page's size in points as shown (crop box, turned by its rotation), read by pdfinfo. */
function shownSizes(path: string, password?: string): { width: number; height: number }[] {
  const args = ['-box', '-f', '1', '-l', '100000', ...(password ? ['-upw', password] : []), path];
  const out = execFileSync('pdfinfo', args).toString();
  const rot = [...out.matchAll(/^Page\s+\d+ rot:\s+(\d+)/gm)].map((m) => Number(m[1]));
  return [...out.matchAll(/^Page\s+\d+ CropBox:\s+([\d.-]+)\s+([\d.-]+)\s+([\d.-]+)\s+([\d.-]+)/gm)].map((m, i) => {
    const w = Number(m[3]) - Number(m[1]);
    const h = Number(m[4]) - Number(m[2]);
    return rot[i]! % 180 === 90 ? { width: h, height: w } : { width: w, height: h };
  });
}

/** Runs pdf-to-images and checks the ZIP: names, count, formats and pixel sizes for the dpi. */
async function images(file: string, fields: Record<string, string>, password?: string) {
  const r = await result(app(), 'pdf-to-images', [file], { ...fields, ...(password ? { password } : {}) });
  expect(r.headers['content-type']).toBe('application/zip');
  const entries = await unzip(r.path);
  const sizes = shownSizes(file, password);
  const format = fields.format ?? 'png';
  const dpi = Number(fields.dpi ?? 150);
  const stem = file
    .split('/')
    .pop()!
    .replace(/\.pdf$/, '');
  expect(entries.map((e) => e.name)).toEqual(
    sizes.map((_, i) => `${stem}-page-${String(i + 1).padStart(3, '0')}.${format}`),
  );
  for (const [i, entry] of entries.entries()) {
    const meta = await sharp(entry.data).metadata();
    expect(meta.format).toBe(format === 'jpg' ? 'jpeg' : 'png');
    // pdftoppm rounds each side up; allow one pixel either way for boxes with fractions.
    expect(Math.abs(meta.width! - (sizes[i]!.width * dpi) / 72)).toBeLessThanOrEqual(1);
    expect(Math.abs(meta.height! - (sizes[i]!.height * dpi) / 72)).toBeLessThanOrEqual(1);
  }
  expect(r.properties).toMatchObject({ pages: sizes.length, images: sizes.length, format, dpi });
  return { ...r, entries };
}

describe('pdf-to-images', () => {
  it('gives one PNG per page at 150 dpi by default, each the page as a reader shows it', async () => {
    const file = pdf('qpdf-11-pages.pdf');
    const { entries, headers } = await images(file, {});
    expect(entries).toHaveLength(11);
    expect(decodeURIComponent(headers['x-quire-output-name']!)).toBe('qpdf-11-pages-images.zip');
    // Letter at 150 dpi.
    expect(await sharp(entries[0]!.data).metadata()).toMatchObject({ width: 1275, height: 1650 });
    // Page 7 is page 7, not another: the very pixels of poppler's own rendering of that page.
    const pixels = (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer();
    const seventh = await pixels(entries[6]!.data);
    expect(seventh.equals(await pixels(await renderPng(file, 7, 150)))).toBe(true);
    expect(seventh.equals(await pixels(await renderPng(file, 8, 150)))).toBe(false);
  });

  it('gives JPEGs at the dpi asked for', async () => {
    const { entries } = await images(pdf('pypdf-pdflatex-4-pages.pdf'), { format: 'jpg', dpi: '72' });
    expect(entries).toHaveLength(4);
    expect(entries.every((e) => e.data[0] === 0xff && e.data[1] === 0xd8)).toBe(true);
  });

  it('turns rotated pages as a reader does', async () => {
    // Page 2 is turned 90°: its image is landscape.
    const { entries } = await images(pdf('pdfjs-rotation.pdf'), { dpi: '100' });
    const [a, b] = await Promise.all(entries.map((e) => sharp(e.data).metadata()));
    expect(a!.width! < a!.height!).toBe(true);
    expect(b!.width! > b!.height!).toBe(true);
  });

  it('renders an encrypted PDF with its password, and asks for it otherwise', async () => {
    const file = encrypted('qpdf-20-pages-user-owner.pdf');
    const { entries } = await images(file, { dpi: '72', format: 'jpg' }, 'user');
    expect(entries).toHaveLength(20);
    const none = await call(app(), 'pdf-to-images', [file]);
    expect(none.status).toBe(400);
    expect(none.error?.code).toBe('password_required');
    const wrong = await call(app(), 'pdf-to-images', [file], { password: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.error?.code).toBe('wrong_password');
  });

  it('opens AES-256 and owner-password-only files', async () => {
    expect((await images(encrypted('pdfminer-aes-256-r6.pdf'), { dpi: '72' }, 'usersecret')).entries).toHaveLength(1);
    expect(
      (await images(encrypted('qpdf-rc4-128-R3-owner-only.pdf'), { dpi: '72', format: 'jpg' })).entries,
    ).toHaveLength(30);
  });

  it('refuses a PDF drawing an image too large to decode, before rendering it', async () => {
    // The scan in this file is 2496×3274 pixels (8.2 MP).
    const started = limits.renderImageMegapixels;
    limits.renderImageMegapixels = 8;
    try {
      const r = await call(app(), 'pdf-to-images', [pdf('camelot-image-scanned-table.pdf')], { dpi: '72' });
      expect(r.status).toBe(422);
      expect(r.error?.code).toBe('damaged_input');
      expect(r.error?.message).toBe(
        'This PDF is too large to turn into images: page 1 draws an image of 2496×3274 pixels; the limit is 8 megapixels.',
      );
      limits.renderImageMegapixels = 9;
      expect((await images(pdf('camelot-image-scanned-table.pdf'), { dpi: '72' })).entries).toHaveLength(1);
    } finally {
      limits.renderImageMegapixels = started;
    }
  });

  it('refuses a dpi that would make too many pixels, saying which dpi fits', async () => {
    const started = limits.renderMegapixels;
    limits.renderMegapixels = 20;
    try {
      // 11 letter pages at 300 dpi: 92 MP.
      const r = await call(app(), 'pdf-to-images', [pdf('qpdf-11-pages.pdf')], { dpi: '300' });
      expect(r.status).toBe(400);
      expect(r.error?.code).toBe('invalid_option');
      expect(r.error?.message).toBe(
        'The option "dpi" is too high for this PDF: its 11 pages would make 93 megapixels of images at 300 dpi; the limit is 20 megapixels. Please choose 139 dpi or less.',
      );
      // And that dpi does fit.
      expect(
        (await call(app(), 'pdf-to-images', [pdf('qpdf-11-pages.pdf')], { dpi: '139', format: 'jpg' })).status,
      ).toBe(200);
      // When not even 72 dpi fits, the file is too large.
      limits.renderMegapixels = 1;
      const big = await call(app(), 'pdf-to-images', [pdf('qpdf-11-pages.pdf')], { dpi: '72' });
      expect(big.status).toBe(422);
      expect(big.error?.message).toMatch(
        /^This PDF is too large to turn into images: its 11 pages would make 6 megapixels/,
      );
    } finally {
      limits.renderMegapixels = started;
    }
  });

  it('refuses a dpi outside 72–300, naming the field', async () => {
    const r = await call(app(), 'pdf-to-images', [pdf('qpdf-11-pages.pdf')], { dpi: '600' });
    expect(r.status).toBe(400);
    expect(r.error?.message).toContain('dpi');
  });

  it('renders every damaged PDF it can read, and refuses the rest clearly, never with a 5xx', async () => {
    const broken = readdirSync(join(corpus, 'pdf-broken')).filter((f) => f.endsWith('.pdf'));
    expect(broken.length).toBeGreaterThanOrEqual(19);
    const outcomes = new Set<string>();
    for (const name of broken) {
      const r = await call(app(), 'pdf-to-images', [join(corpus, 'pdf-broken', name)], { dpi: '72', format: 'jpg' });
      expect(r.status, name).toBeLessThan(500);
      if (r.status === 200) {
        const zip = scratchFile('zip');
        writeFileSync(zip, r.body);
        const entries = await unzip(zip);
        expect(entries.length, name).toBe(r.properties.pages);
        outcomes.add('ok');
      } else {
        expect(['unsupported_type', 'empty_file', 'damaged_input'], name).toContain(r.error?.code);
        outcomes.add(r.error!.code);
      }
    }
    // Renderable ones give images; non-PDFs are refused by content, an empty file as empty; the one
    // qpdf cannot count the pages of is damaged (the kit checks every result's page count with qpdf).
    expect([...outcomes].sort()).toEqual(['damaged_input', 'empty_file', 'ok', 'unsupported_type']);
  });
});
