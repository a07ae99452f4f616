import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, corpus, pdf } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';
import { wordMatch, wordsOf } from '../../../test/word-match.ts';
import { defaults } from '@quire/base';
import { maxOcrPages } from '../../ocr/pages.ts';

const app = useExtract();
const scratch = mkdtempSync(join(tmpdir(), 'pdf-ocr-test-'));
const ocrScratch = () => readdirSync(tmpdir()).filter((n) => /^(ocrmypdf|tess|com\.github\.ocrmypdf)/.test(n));
const scratchBefore = ocrScratch();

const textOf = (file: string, page?: number) =>
  execFileSync('pdftotext', ['-q', '-enc', 'UTF-8', ...(page ? ['-f', `${page}`, '-l', `${page}`] : []), file, '-'])
    .toString()
    .normalize('NFKC');
afterAll(() => {
  // OCRmyPDF and Tesseract write their scratch files in the job's folder only, never the system's.
  expect(ocrScratch()).toEqual(scratchBefore);
});

describe('pdf-ocr', () => {
  it('reads a scan (encrypted with an empty user password) into a text layer, keeping its pages and looks', async () => {
    const scan = pdf('textract-ocr_text-scanned.pdf');
    const a = await call(app(), 'pdf-ocr', scan);
    expect(a.status).toBe(200);
    expect(a.kind).toBe('pdf');
    expect(a.properties).toMatchObject({ pages: 3, ocrPages: [1, 2, 3], pagesWithoutText: [], language: 'eng' });
    expect(a.properties.checks).toEqual(['opens', 'pages', 'pixels']);
    const expected = readFileSync(pdf('textract-ocr_text-scanned.expected.txt'), 'utf8');
    const { recall, precision } = wordMatch(textOf(a.file!), expected);
    // Measured: recall 0.975, precision 0.982.
    expect(recall).toBeGreaterThan(0.95);
    expect(precision).toBeGreaterThan(0.95);
  });

  it('gives a digital PDF back as it was with skip, and never doubles its text with redo', async () => {
    const digital = pdf('textract-raw_text.pdf');
    const skipped = await call(app(), 'pdf-ocr', digital);
    expect(skipped.properties).toMatchObject({ pages: 2, ocrPages: [], unchanged: true });
    expect(readFileSync(skipped.file!)).toEqual(readFileSync(digital));

    // One page is enough to see that redo reads the page again without adding its words twice.
    const onePage = join(scratch, 'digital-page.pdf');
    execFileSync('qpdf', ['--empty', '--pages', digital, '1', '--', onePage]);
    const redone = await call(app(), 'pdf-ocr', onePage, { existingText: 'redo' });
    expect(redone.status).toBe(200);
    expect(redone.properties).toMatchObject({ pages: 1, ocrPages: [1], existingText: 'redo' });
    const before = wordsOf(textOf(onePage)).length;
    expect(wordsOf(textOf(redone.file!)).length).toBeLessThan(before * 1.2);
  });

  it('reads an image without a stated resolution into a one-page searchable PDF', async () => {
    const image = join(corpus, 'images/textract-raw_text.png');
    const a = await call(app(), 'pdf-ocr', image, { language: 'eng+fra' });
    expect(a.status).toBe(200);
    expect(a.properties).toMatchObject({ pages: 1, ocrPages: [1], language: 'eng+fra' });
    const expected = readFileSync(`${image}.expected.txt`, 'utf8');
    expect(wordMatch(textOf(a.file!), expected).recall).toBeGreaterThanOrEqual(2 / 3);
  });

  it('gives a tiny image (a pixel, a 10-pixel icon of three frames) a page PDF allows, and an honest empty result', async () => {
    for (const [image, pages] of [
      [join(corpus, 'html/gotenberg-html-with-asset/image.png'), 1],
      [join(corpus, 'images/pillow-multipage.tiff'), 3],
    ] as const) {
      const a = await call(app(), 'pdf-ocr', image);
      expect(a.status, image).toBe(200);
      expect(a.properties).toMatchObject({ pages });
      expect(textOf(a.file!).trim()).toBe('');
    }
  });

  it('says which pages have ink but no text, and calls a blank page neither', async () => {
    // A photo with no words on page 1, a blank page 2: neither gets text, only the photo is reported.
    const photo = join(scratch, 'photo.pdf');
    const img = join(corpus, 'images/pillow-hopper.jpg');
    execFileSync('/usr/bin/python3', [
      '-c',
      'import img2pdf,sys; open(sys.argv[2],"wb").write(img2pdf.convert(sys.argv[1], layout_fun=img2pdf.get_fixed_dpi_layout_fun((96,96))))',
      img,
      photo,
    ]);
    const blank = join(scratch, 'blank.pdf');
    writeFileSync(join(scratch, 'blank.ps'), '<< /PageSize [300 400] >> setpagedevice showpage\n');
    execFileSync('gs', [
      '-q',
      '-dBATCH',
      '-dNOPAUSE',
      '-sDEVICE=pdfwrite',
      `-sOutputFile=${blank}`,
      join(scratch, 'blank.ps'),
    ]);
    const both = join(scratch, 'both.pdf');
    execFileSync('qpdf', ['--empty', '--pages', photo, blank, '--', both]);
    const a = await call(app(), 'pdf-ocr', both);
    expect(a.status).toBe(200);
    expect(a.properties).toMatchObject({ pages: 2, ocrPages: [1, 2], pagesWithoutText: [1] });
    expect(a.properties.note).toMatch(/no text/);
  });

  it('refuses an unknown language by name, a damaged file and a PDF past the page limit, clearly', async () => {
    const scan = pdf('textract-ocr_text-scanned.pdf');
    const lang = await call(app(), 'pdf-ocr', scan, { language: 'eng+klingon' });
    expect(lang.status).toBe(400);
    expect(lang.error).toMatchObject({ code: 'invalid_option' });
    expect(lang.error!.message).toContain('"klingon"');

    const cut = join(scratch, 'cut.png');
    writeFileSync(cut, readFileSync(join(corpus, 'images/textract-raw_text.png')).subarray(0, 2000));
    const damaged = await call(app(), 'pdf-ocr', cut);
    expect(damaged.status).toBe(422);
    expect(damaged.error?.code).toBe('damaged_input');

    // A PDF with two byte ranges cut out: qpdf mends it, OCRmyPDF's reader finds a page that is no page.
    const b = readFileSync(pdf('qpdf-page-labels-and-outlines.pdf'));
    const once = Buffer.concat([b.subarray(0, 4418), b.subarray(4418 + 1656)]);
    const broken = join(scratch, 'broken.pdf');
    writeFileSync(broken, Buffer.concat([once.subarray(0, 10767), once.subarray(10767 + 165)]));
    const unread = await call(app(), 'pdf-ocr', broken);
    expect(unread.status).toBe(422);
    expect(unread.error?.code).toBe('damaged_input');

    const long = await call(app(), 'pdf-ocr', pdf('pypdf-geotopo-117-pages.pdf'));
    expect(long.status).toBe(413);
    expect(long.error?.code).toBe('file_too_large');
    expect(long.error!.message).toContain(`${maxOcrPages(defaults.jobTimeoutMs)} pages`);

    const both = await call(app(), 'pdf-ocr', scan, { deskew: 'true', existingText: 'redo' });
    expect(both.error?.code).toBe('invalid_option');
  });
});
