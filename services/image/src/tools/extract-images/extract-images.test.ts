import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
} from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { limits } from '../../config.ts';
import { call, corpus, image, result, scratchFile, unzip } from '../../../test/helpers.ts';
import { useImageService } from '../../../test/use-image.ts';

const app = useImageService();

const pdf = (name: string) => join(corpus, 'pdf', name);

/** pdfimages' own listing, inline images included: what the zip must hold, one entry a row. */
function listing(path: string, password?: string) {
  return execFileSync('pdfimages', ['-list', ...(password ? ['-upw', password] : []), path])
    .toString()
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const c = line.trim().split(/\s+/);
      return { page: +c[0]!, type: c[2]!, width: +c[3]!, height: +c[4]!, color: c[5]!, enc: c[8]!, object: c[10]! };
    });
}

/**
 * Runs the tool and checks the zip against pdfimages' listing: as many entries as rows, each named by
 * its page, decoding (sharp) to the listed size, a JPEG where the PDF stores one and a PNG elsewhere.
 */
async function extract(file: string, password?: string) {
  const r = await result(app(), 'extract-images', [file], password ? { password } : {});
  expect(r.headers['content-type']).toBe('application/zip');
  const entries = await unzip(r.path);
  const listed = listing(file, password);
  expect(entries).toHaveLength(listed.length);
  for (const [i, entry] of entries.entries()) {
    const row = listed[i]!;
    expect(entry.name).toMatch(new RegExp(`^page-0*${row.page}-image-\\d+(-s?mask)?\\.(jpg|png)$`));
    const meta = await sharp(entry.data).metadata();
    expect(meta.format, entry.name).toBe(row.enc === 'jpeg' ? 'jpeg' : 'png');
    expect([meta.width, meta.height], entry.name).toEqual([row.width, row.height]);
  }
  expect(r.properties).toMatchObject({ images: listed.length });
  return { ...r, entries, listed };
}

describe('extract-images', () => {
  it('copies a JPEG out byte for byte, as the PDF stores it', async () => {
    const file = pdf('pdfjs-alphatrans.pdf');
    const { entries, listed, headers } = await extract(file);
    expect(entries.map((e) => e.name)).toEqual(['page-001-image-01.jpg']);
    const stored = execFileSync('qpdf', [`--show-object=${listed[0]!.object}`, '--raw-stream-data', file]);
    expect(entries[0]!.data.equals(stored)).toBe(true);
    expect(decodeURIComponent(headers['x-quire-output-name']!)).toBe('pdfjs-alphatrans-images.zip');
  });

  it('decodes JBIG2, CCITT and indexed images to PNGs of their pixels', async () => {
    for (const name of [
      'pdfminer-pdf-with-jbig2.pdf',
      'pypdf-imagemagick-CCITTFaxDecode.pdf',
      'pypdf-cmyk-image.pdf',
      'tabula-jpeg2000.pdf',
    ]) {
      const { entries } = await extract(pdf(name));
      expect(entries.map((e) => e.name)).toEqual(['page-001-image-01.png']);
    }
    // The JBIG2 stencil comes out as the page shows it: mostly white, its drawing in black.
    const { entries } = await extract(pdf('pdfminer-pdf-with-jbig2.pdf'));
    const { channels, isOpaque } = await sharp(entries[0]!.data).stats();
    expect(isOpaque).toBe(true);
    expect(channels[0]!.mean).toBeGreaterThan(200);
    expect(channels[0]!.min).toBe(0);
  });

  it('names images by page and order, a mask after its image', async () => {
    const { entries } = await extract(pdf('pypdf-imagemagick-images.pdf'));
    expect(entries.map((e) => e.name)).toEqual([
      'page-001-image-01.png',
      'page-002-image-01.png',
      'page-003-image-01.png',
      'page-004-image-01.jpg',
      'page-005-image-01.png',
      'page-006-image-01.png',
    ]);
    const masked = await extract(pdf('pdfjs-tracemonkey.pdf'));
    expect(masked.entries.slice(0, 4).map((e) => e.name)).toEqual([
      'page-002-image-01.png',
      'page-002-image-01-smask.png',
      'page-002-image-02.png',
      'page-002-image-02-smask.png',
    ]);
  });

  it('keeps a CMYK JPEG as the JPEG it is, in its four inks', async () => {
    const file = await fixture(async (doc) => {
      const jpeg = await doc.embedJpg(readFileSync(image('pillow-pil_sample_cmyk.jpg')));
      doc.addPage([300, 300]).drawImage(jpeg, { x: 10, y: 10, width: 200, height: 200 });
    });
    const { entries } = await extract(file);
    expect((await sharp(entries[0]!.data).metadata()).space).toBe('cmyk');
    expect(entries[0]!.data.equals(readFileSync(image('pillow-pil_sample_cmyk.jpg')))).toBe(true);
  });

  it('extracts an image inline in the page content', async () => {
    const file = await fixture(async (doc) => {
      const page = doc.addPage([200, 200]);
      // A 2×2 grey checkerboard drawn with BI … ID … EI.
      page.node.set(
        doc.context.obj('Contents'),
        doc.context.register(
          doc.context.stream(
            Buffer.concat([
              Buffer.from('q 100 0 0 100 50 50 cm BI /W 2 /H 2 /CS /G /BPC 8 ID '),
              Buffer.from([0, 255, 255, 0]),
              Buffer.from(' EI Q'),
            ]),
          ),
        ),
      );
    });
    const { entries, listed } = await extract(file);
    expect(listed[0]!.object).toBe('[inline]');
    const { data } = await sharp(entries[0]!.data).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([...data]).toEqual([0, 255, 255, 0]);
  });

  it('takes an encrypted PDF with its password', async () => {
    const file = join(corpus, 'pdf-encrypted', 'pdfplumber-password-example.pdf');
    const { entries } = await extract(file, 'test');
    expect(entries.length).toBeGreaterThan(0);
    const wrong = await call(app(), 'extract-images', [file], { password: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.error?.code).toBe('wrong_password');
  });

  it('refuses a PDF with no image, rather than give an empty zip', async () => {
    const r = await call(app(), 'extract-images', [pdf('pdfminer-simple1.pdf')]);
    expect(r.status).toBe(415);
    expect(r.error).toMatchObject({ code: 'unsupported_type', message: 'This PDF has no embedded images to extract.' });
  });

  it('refuses more images than the limit, naming it', async () => {
    const file = await fixture(async (doc) => {
      const page = doc.addPage([100, 100]);
      const dot = doc.context.register(
        doc.context.flateStream(Buffer.from([128]), {
          Type: 'XObject',
          Subtype: 'Image',
          Width: 1,
          Height: 1,
          ColorSpace: 'DeviceGray',
          BitsPerComponent: 8,
        }),
      );
      const name = page.node.newXObject('Im', dot);
      for (let i = 0; i <= limits.extractImages; i++) {
        page.pushOperators(
          pushGraphicsState(),
          concatTransformationMatrix(1, 0, 0, 1, i % 100, 0),
          drawObject(name),
          popGraphicsState(),
        );
      }
    });
    expect(listing(file)).toHaveLength(limits.extractImages + 1);
    const r = await call(app(), 'extract-images', [file]);
    expect(r.status).toBe(413);
    expect(r.error?.code).toBe('file_too_large');
    expect(r.error?.message).toContain(`the limit is ${limits.extractImages.toLocaleString('en-US')} images`);
  });

  it('refuses a file that is not a PDF', async () => {
    const r = await call(app(), 'extract-images', [image('pillow-hopper.jpg')]);
    expect(r.status).toBe(415);
    expect(r.error?.code).toBe('unsupported_type');
  });
});

/** A PDF made with pdf-lib, for a case the corpus has no file of. */
async function fixture(build: (doc: PDFDocument) => Promise<void>): Promise<string> {
  const doc = await PDFDocument.create();
  await build(doc);
  const path = scratchFile('pdf');
  writeFileSync(path, await doc.save());
  return path;
}
