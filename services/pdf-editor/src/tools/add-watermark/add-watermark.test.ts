import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdf, scratch, useEditor, pages, check, text, rotations, info } from '../../../test/helpers.ts';

const { call } = useEditor();

/** A page rendered in gray at a low resolution: width, height and one byte per pixel. */
function render(file: string, page: number, dpi = 24): { width: number; height: number; pixels: Buffer } {
  const range = ['-f', String(page), '-l', String(page)];
  const out = execFileSync('pdftoppm', ['-cropbox', '-gray', '-r', String(dpi), ...range, file]);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(out.subarray(0, 40).toString('latin1'))!;
  return { width: Number(header[1]), height: Number(header[2]), pixels: out.subarray(header[0].length) };
}

/** Where two renderings of a page differ, as fractions of the page: the watermark's box as shown. */
function changedBox(before: string, after: string, page: number, dpi?: number) {
  const a = render(before, page, dpi);
  const b = render(after, page, dpi);
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

describe('add-watermark with a long text on a small page', () => {
  const long = 'Internal draft for the finance committee: do not forward';

  // Measured on the rendering: the text is marked with its ActualText, which pdftotext -bbox reports as one
  // point-wide word, while the pixels show every letter where it was drawn.
  it.each([
    { position: 'center', size: [200, 150] },
    { position: 'diagonal', size: [200, 150] },
    // Tall and narrow: along the diagonal the text's own height reaches the sides.
    { position: 'diagonal', size: [80, 500] },
  ] as const)('keeps every letter inside the page, with a margin ($position, $size)', async ({ position, size }) => {
    const doc = await PDFDocument.create();
    doc.addPage([...size]);
    const small = join(scratch, `small-${position}-${size[0]}.pdf`);
    writeFileSync(small, await doc.save());
    const r = await call('add-watermark', [small], { text: long, position });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(text(r.file)).toContain('finance committee');
    const box = changedBox(small, r.file, 1, 144);
    const [left, right] = [box.centerX - box.width / 2, box.centerX + box.width / 2];
    const [top, bottom] = [box.centerY - box.height / 2, box.centerY + box.height / 2];
    for (const edge of [left, top, 1 - right, 1 - bottom]) expect(edge).toBeGreaterThan(0.03);
    // Fitted, not shrunk to nothing: the text spans most of the page's width or height.
    expect(Math.max(box.width, box.height)).toBeGreaterThan(0.6);
  });
});
