import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notEmbedded, pdfaIdentification, wordsLost, wordsOf } from '@quire/pdf';
import { check, corpus, encrypted, pages, pdf, pool, text, useEditor } from '../../../test/helpers.ts';

const { call } = useEditor();

const meta = (file: string) => execFileSync('pdfinfo', ['-meta', file]).toString();
const fonts = (file: string) => execFileSync('pdffonts', [file]).toString();
const catalog = (file: string) => {
  const json = JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=qpdf', file]).toString());
  const objects = json.qpdf[1] as Record<string, { value?: Record<string, unknown> }>;
  return objects[`obj:${objects.trailer!.value!['/Root']}`]!.value!;
};
/** The darkest grey of page 1 rendered by poppler at 30 dpi (255 is a blank page). */
function darkest(file: string): number {
  const pgm = execFileSync('pdftoppm', ['-r', '30', '-gray', '-f', '1', '-l', '1', file]);
  const header = /^P5\s+\d+\s+\d+\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))![0];
  return pgm.subarray(header.length).reduce((min, b) => Math.min(min, b), 255);
}
/** Words with their letters sorted: Ghostscript re-encodes text, so words are compared, not bytes. */
const words = (file: string) => wordsOf(text(file).normalize('NFKC')).sort();

/** What every PDF/A result must show, read with the same programs a person would use. */
function expectPdfa(file: string, part: string, source: string, password?: string) {
  expect(check(file), source).toBe(0);
  expect(pdfaIdentification(meta(file)), source).toEqual({ part, conformance: 'B' });
  expect(catalog(file)['/OutputIntents'], source).toHaveLength(1);
  expect(notEmbedded(fonts(file)), source).toEqual([]);
  expect(encrypted(file), source).toBe(false);
  expect(pages(file), source).toBe(Number(/Pages:\s+(\d+)/.exec(pdfinfo(source, password))![1]));
}
const pdfinfo = (file: string, password?: string) =>
  execFileSync('pdfinfo', [...(password ? ['-upw', password] : []), file]).toString();

describe('pdf-to-pdfa', () => {
  it('makes a PDF/A-2b copy with every font embedded, its words and its pages', async () => {
    const source = pdf('pdfminer-simple1.pdf');
    expect(notEmbedded(fonts(source))).toEqual(['Helvetica']);
    const r = await call('pdf-to-pdfa', [source]);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expectPdfa(r.file, '2', source);
    expect(words(r.file)).toEqual(words(source));
    expect(r.props).toMatchObject({ pages: 1, conformance: 'PDF/A-2B' });
  });

  it('makes PDF/A-1b and PDF/A-3b on request', async () => {
    for (const [conformance, part] of [
      ['1b', '1'],
      ['3b', '3'],
    ] as const) {
      const source = pdf('pypdf-pdflatex-4-pages.pdf');
      const r = await call('pdf-to-pdfa', [source], { conformance });
      expect(r.status, JSON.stringify(r.error)).toBe(200);
      expectPdfa(r.file, part, source);
      expect(words(r.file)).toEqual(words(source));
    }
  });

  it('converts scans (JBIG2, CCITT, JPEG), grey images and forms, keeping their pages', async () => {
    const names = [
      'pdfminer-pdf-with-jbig2.pdf',
      'pypdf-imagemagick-CCITTFaxDecode.pdf',
      'camelot-image-scanned-table.pdf',
      'pypdf-grayscale-image.pdf',
      'qpdf-sample-form.pdf',
      'pdfjs-simpletype3font.pdf',
      'qpdf-11-pages.pdf',
    ];
    await pool(names, 2, async (name) => {
      const r = await call('pdf-to-pdfa', [pdf(name)]);
      expect(r.status, `${name}: ${JSON.stringify(r.error)}`).toBe(200);
      expectPdfa(r.file, '2', pdf(name));
      // Page 1 is drawn as dark as the original's: poppler's renders have the same darkest grey, near enough.
      expect(Math.abs(darkest(r.file) - darkest(pdf(name))), name).toBeLessThan(40);
    });
  });

  it('opens an encrypted PDF with its password and gives an unencrypted PDF/A', async () => {
    const source = join(corpus, 'pdf-encrypted/pypdf-libreoffice-writer-password.pdf');
    const r = await call('pdf-to-pdfa', [source], { password: 'openpassword' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expectPdfa(r.file, '2', source, 'openpassword');
    expect(words(r.file)).toEqual(
      wordsOf(execFileSync('pdftotext', ['-upw', 'openpassword', source, '-']).toString().normalize('NFKC')).sort(),
    );
  });

  it('refuses an encrypted PDF without its password, or with a wrong one', async () => {
    const source = join(corpus, 'pdf-encrypted/pypdf-libreoffice-writer-password.pdf');
    expect((await call('pdf-to-pdfa', [source])).error?.code).toBe('password_required');
    const wrong = await call('pdf-to-pdfa', [source], { password: 'not-it' });
    expect(wrong.status).toBe(400);
    expect(wrong.error?.code).toBe('wrong_password');
  });

  it("reads a file Ghostscript's default reader cannot open: its /Info is its page tree", async () => {
    const source = pdf('pypdf-cmyk-image.pdf');
    const r = await call('pdf-to-pdfa', [source]);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expectPdfa(r.file, '2', source);
  });

  it('keeps the words of fonts whose Unicode the default reader loses: Arabic TrueType, MacRoman TrueType, standard fonts', async () => {
    // And the values of form fields that leave their drawing to the reader (NeedAppearances).
    const names = [
      'pypdf-habibi-rotated.pdf',
      'textract-raw_text.pdf',
      'tabula-jpeg2000.pdf',
      'pypdf-libreoffice-form.pdf',
    ];
    await pool(names, 2, async (name) => {
      const r = await call('pdf-to-pdfa', [pdf(name)]);
      expect(r.status, `${name}: ${JSON.stringify(r.error)}`).toBe(200);
      expectPdfa(r.file, '2', pdf(name));
      // Every letter is there; where the copy's glyphs moved by a hair, the reader may break words elsewhere.
      expect(wordsLost(text(pdf(name)), text(r.file)), name).toMatchObject({ kept: true });
      if (/habibi|form/.test(name)) expect(words(r.file), name).toEqual(words(pdf(name)));
    });
  });

  it('says so, rather than offering a copy without its words, when a font it needs is not in the file', async () => {
    const source = pdf('pdfminer-jo.pdf');
    expect(notEmbedded(fonts(source))).toEqual(['Ryumin-Light-Identity-V']);
    const r = await call('pdf-to-pdfa', [source]);
    expect(r.status).toBe(422);
    expect(r.error?.code).toBe('cannot_convert');
    expect(r.error?.message).toContain('font');
  });

  it('refuses a version it does not make, and a file that is not a PDF, naming what is wrong', async () => {
    const bad = await call('pdf-to-pdfa', [pdf('qpdf-11-pages.pdf')], { conformance: '4z' });
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toContain('conformance');
    const notPdf = await call('pdf-to-pdfa', [join(corpus, 'images/pillow-hopper.avif')]);
    expect(notPdf.status).toBeGreaterThanOrEqual(400);
    expect(notPdf.status).toBeLessThan(500);
  });
});
