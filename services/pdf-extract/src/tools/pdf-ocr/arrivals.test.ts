import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, pdf, resultText } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';
import { wordMatch, wordsOf } from '../../../test/word-match.ts';

const app = useExtract();
const scratch = mkdtempSync(join(tmpdir(), 'ocr-arrivals-'));
const expected = readFileSync(pdf('textract-ocr_text-scanned.expected.txt'), 'utf8');
const textOf = (file: string, page?: number) =>
  execFileSync('pdftotext', ['-q', '-enc', 'UTF-8', ...(page ? ['-f', `${page}`, '-l', `${page}`] : []), file, '-'])
    .toString()
    .normalize('NFKC');

/** The corpus scan (three bilevel pages, RC4-encrypted with an empty user password) as other scanners write it. */
const ccitt = join(scratch, 'ccitt.pdf');
/** The digital page scanned 1.5° askew, as a sheet fed a little crooked comes out. */
const skewed = join(scratch, 'skewed.png');
/** A digital page between two scanned ones. */
const mixed = join(scratch, 'mixed.pdf');
const digital = pdf('textract-raw_text.pdf');

beforeAll(() => {
  const decrypted = join(scratch, 'decrypted.pdf');
  execFileSync('qpdf', ['--decrypt', pdf('textract-ocr_text-scanned.pdf'), decrypted]);
  // Ghostscript re-encodes the bilevel images as CCITT G4, as fax and office scanners store them.
  const mono = ['-dEncodeMonoImages=true', '-dAutoFilterMonoImages=false', '-dMonoImageFilter=/CCITTFaxEncode'];
  execFileSync('gs', [
    '-dSAFER',
    '-dBATCH',
    '-dNOPAUSE',
    '-q',
    '-sDEVICE=pdfwrite',
    ...mono,
    '-dDownsampleMonoImages=false',
    `-sOutputFile=${ccitt}`,
    decrypted,
  ]);
  expect(
    execFileSync('pdfimages', ['-list', ccitt])
      .toString()
      .match(/ ccitt /g),
  ).toHaveLength(3);
  execFileSync('qpdf', ['--empty', '--pages', decrypted, '1', digital, '1', decrypted, '2', '--', mixed]);
  const flat = join(scratch, 'flat');
  execFileSync('pdftoppm', ['-q', '-r', '200', '-gray', '-png', '-singlefile', '-f', '1', '-l', '1', digital, flat]);
  const turn = `from PIL import Image; import sys
Image.open(sys.argv[1]).rotate(1.5, expand=True, fillcolor=255).save(sys.argv[2], dpi=(200, 200))`;
  execFileSync('/usr/bin/python3', ['-c', turn, `${flat}.png`, skewed]);
});

describe('scans as they arrive', () => {
  it('reads a CCITT G4 scan', async () => {
    const a = await call(app(), 'pdf-ocr', ccitt);
    expect(a.status).toBe(200);
    expect(a.properties).toMatchObject({ pages: 3, ocrPages: [1, 2, 3], pagesWithoutText: [] });
    const { recall, precision } = wordMatch(textOf(a.file!), expected);
    expect(recall).toBeGreaterThan(0.95);
    expect(precision).toBeGreaterThan(0.95);
  });

  it('reads a JBIG2 scan: the words in a drawing', async () => {
    const a = await call(app(), 'pdf-ocr', pdf('pdfminer-pdf-with-jbig2.pdf'));
    expect(a.status).toBe(200);
    expect(a.properties).toMatchObject({ pages: 1, ocrPages: [1] });
    expect(wordsOf(textOf(a.file!))).toEqual(expect.arrayContaining(['it', "doesn't"]));
  });

  it("lays a skewed scan's words level, so that a reader takes each word whole", async () => {
    const a = await call(app(), 'pdf-ocr', skewed);
    expect(a.status).toBe(200);
    // Along the slant, poppler cut a long word wherever its baseline had sunk half a point ("Helv etica"):
    // precision 0.93, recall 0.95. Each word laid level where it starts: 0.985 and 0.98.
    const { recall, precision } = wordMatch(textOf(a.file!), textOf(digital, 1));
    expect(precision).toBeGreaterThan(0.97);
    expect(recall).toBeGreaterThan(0.97);
  });

  it('reads only the scanned pages of a mixed document, and keeps the digital page as it was', async () => {
    const a = await call(app(), 'pdf-ocr', mixed);
    expect(a.status).toBe(200);
    expect(a.properties).toMatchObject({ pages: 3, ocrPages: [1, 3] });
    // The digital page's words once, not again under an OCR layer.
    expect(wordsOf(textOf(a.file!, 2))).toEqual(wordsOf(textOf(digital, 1)));
    const scanned = `${textOf(a.file!, 1)}\n${textOf(a.file!, 3)}`;
    expect(wordMatch(scanned, expected).precision).toBeGreaterThan(0.95);

    const t = await call(app(), 'pdf-to-text', mixed);
    expect(t.properties).toMatchObject({ scannedPages: [1, 3], ocrPages: [1, 3] });
    const text = readFileSync(t.file!, 'utf8');
    const truth = `${expected}\n${textOf(digital, 1)}`;
    expect(wordMatch(text, truth).precision).toBeGreaterThan(0.95);
    expect(wordMatch(text, textOf(digital, 1)).recall).toBeGreaterThan(0.99);
  });

  it("pdf-to-html gives a scan's recognised words as the page's text", async () => {
    const h = await call(app(), 'pdf-to-html', ccitt);
    expect(h.status).toBe(200);
    expect(h.properties).toMatchObject({ ocrPages: [1, 2, 3] });
    const { recall, precision } = wordMatch(resultText(h.file!, 'html'), expected);
    expect(recall).toBeGreaterThan(0.9);
    expect(precision).toBeGreaterThan(0.9);
  });
});
