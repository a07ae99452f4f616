import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { corpus, pages, pdf, scratch, text, useEditor } from '../../../test/helpers.ts';

const { call } = useEditor();

/** A one-page PDF of these lines, in Helvetica 14. */
async function letter(name: string, lines: string[], rotate = 0): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([400, 300]);
  lines.forEach((line, i) => page.drawText(line, { x: 30, y: 250 - i * 24, size: 14, font }));
  if (rotate) page.setRotation({ type: 'degrees', angle: rotate } as never);
  const path = join(scratch, name);
  writeFileSync(path, await doc.save());
  return path;
}

/** The share of a report page's pixels in a colour, per half: [left, right]. */
function colourShare(
  file: string,
  page: number,
  isColour: (r: number, g: number, b: number) => boolean,
): [number, number] {
  const ppm = execFileSync('pdftoppm', ['-r', '36', '-f', String(page), '-l', String(page), file]);
  const [w, h] = ppm.toString('latin1', 0, 40).split(/\s+/).slice(1, 3).map(Number) as [number, number];
  const start = ppm.length - w * h * 3;
  const counts = [0, 0];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = start + (y * w + x) * 3;
      if (isColour(ppm[o]!, ppm[o + 1]!, ppm[o + 2]!)) counts[x < w / 2 ? 0 : 1]!++;
    }
  return [counts[0]! / (w * h), counts[1]! / (w * h)];
}

/** Where a colour is on a report page's halves, as fractions of the page's height: [top, bottom] or undefined. */
function colourRows(file: string, page: number, isColour: (r: number, g: number, b: number) => boolean) {
  const ppm = execFileSync('pdftoppm', ['-r', '36', '-f', String(page), '-l', String(page), file]);
  const [w, h] = ppm.toString('latin1', 0, 40).split(/\s+/).slice(1, 3).map(Number) as [number, number];
  const start = ppm.length - w * h * 3;
  const rows: [number[], number[]] = [[], []];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = start + (y * w + x) * 3;
      if (isColour(ppm[o]!, ppm[o + 1]!, ppm[o + 2]!)) rows[x < w / 2 ? 0 : 1].push(y / h);
    }
  return rows.map((r) => (r.length ? [Math.min(...r), Math.max(...r)] : undefined));
}

/** The border of a highlight of a change, orange over white. */
const orangish = (r: number, g: number, b: number) => r > 200 && g > 120 && g < 190 && b < 90;
const reddish = (r: number, g: number, b: number) => r > 180 && g < 110 && b < 110;
const greenish = (r: number, g: number, b: number) => g > 120 && r < 170 && g - r > 40 && g - b > 30;

describe('compare-pdf', () => {
  it('finds no change between a document and itself, page by page', async () => {
    const r = await call('compare-pdf', [pdf('qpdf-11-pages.pdf'), pdf('qpdf-11-pages.pdf')]);
    expect(r.status).toBe(200);
    expect(r.props).toMatchObject({ identical: true, changes: 0, wordsAdded: 0, wordsRemoved: 0, pagesChanged: 0 });
    expect(pages(r.file)).toBe(11);
    expect(text(r.file, 3)).toContain('Page 3: no change');
    expect(text(r.file, 3).match(/Original page 3/g)).toHaveLength(2);
    expect(colourShare(r.file, 3, reddish)[0]).toBe(0);
  });

  it('highlights the words removed, added and changed, where they are', async () => {
    const before = await letter('before.pdf', ['The quick brown fox jumps', 'over the lazy dog.']);
    const after = await letter('after.pdf', ['The quick red fox jumps', 'over the dog today.']);
    const r = await call('compare-pdf', [before, after]);
    expect(r.status).toBe(200);
    // brown → red (changed), lazy removed, "dog." → "dog" is the same word, today added.
    expect(r.props).toMatchObject({ identical: false, wordsRemoved: 2, wordsAdded: 2, pagesChanged: 1 });
    expect(r.props.changedPages).toEqual([1]);
    expect(text(r.file, 1)).toContain('Page 1: 2 words removed or changed, 2 added or changed');
    const [leftRed, rightRed] = colourShare(r.file, 1, reddish);
    const [leftGreen, rightGreen] = colourShare(r.file, 1, greenish);
    expect(leftRed).toBeGreaterThan(0); // "lazy", on the first document's side only
    expect(rightRed).toBe(0);
    expect(rightGreen).toBeGreaterThan(0); // "today", on the second's only
    expect(leftGreen).toBe(0);
  });

  it('compares a turned page as it is shown, and documents of different lengths', async () => {
    const turned = await letter('turned.pdf', ['The quick brown fox jumps', 'over the lazy dog.'], 90);
    const plain = await letter('plain.pdf', ['The quick brown fox jumps', 'over the lazy dog.']);
    const same = await call('compare-pdf', [plain, turned]);
    expect(same.props).toMatchObject({ identical: true });
    const longer = await call('compare-pdf', [plain, pdf('qpdf-11-pages.pdf')]);
    expect(longer.status).toBe(200);
    expect(pages(longer.file)).toBe(11);
    expect(text(longer.file, 2)).toContain('(no such page)');
    expect(longer.props).toMatchObject({ firstPages: 1, secondPages: 11, identical: false });
  });

  it('opens an encrypted input with its password, shows a page with no content, refuses a damaged one and one file', async () => {
    const locked = join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf');
    const r = await call('compare-pdf', [locked, locked], { password: 'user' });
    expect(r.status).toBe(200);
    expect(r.props).toMatchObject({ identical: true, firstPages: 20 });
    // A page with no content at all is shown blank; one whose content does not decode is the input's fault.
    const empty = join(corpus, 'pdf-encrypted/pdfjs-empty_protected.pdf');
    const blank = await call('compare-pdf', [empty, empty]);
    expect(blank.props).toMatchObject({ identical: true, note: expect.stringMatching(/no text|Neither/) });
    const fuzzed = join(corpus, 'pdf-broken/pdfjs-GHOSTSCRIPT-698804-1-fuzzed.pdf');
    expect((await call('compare-pdf', [fuzzed, fuzzed])).error?.code).toBe('damaged_input');
    const one = await call('compare-pdf', [pdf('qpdf-11-pages.pdf')]);
    expect(one.error?.code).toBe('too_few_files');
  });

  it('compares by look: marks where the pixels differ, on both sides, and nothing where they do not', async () => {
    const before = await letter('look-before.pdf', ['The quick brown fox jumps', '', '', '', 'over the lazy dog.']);
    const after = await letter('look-after.pdf', ['The quick brown fox jumps', '', '', '', 'over the lazy cat.']);
    const same = await call('compare-pdf', [before, before], { compareBy: 'looks' });
    expect(same.props).toMatchObject({ identical: true, areasChanged: 0, pagesChanged: 0 });
    expect(colourShare(same.file, 1, orangish)).toEqual([0, 0]);
    const r = await call('compare-pdf', [before, after], { compareBy: 'looks' });
    expect(r.status, r.error?.message).toBe(200);
    expect(r.props).toMatchObject({ identical: false, pagesChanged: 1, changedPages: [1], areasChanged: 1 });
    expect(r.props.wordsAdded).toBeUndefined();
    expect(text(r.file, 1)).toContain('Page 1: 1 area looks different');
    // "dog" became "cat" on the fifth line (y = 154 of 300 pt): the mark is there, not on the first line.
    const [left, right] = colourRows(r.file, 1, orangish);
    for (const rows of [left, right]) {
      expect(rows).toBeDefined();
      const [top, bottom] = rows!;
      expect(top).toBeGreaterThan(0.45);
      expect(bottom).toBeLessThan(0.75);
    }
  });

  it('compares scans by look: a stamp added to a scanned page is found, and a longer document shows its extra page', async () => {
    const scan = pdf('camelot-image-scanned-table.pdf');
    const doc = await PDFDocument.load(readFileSync(scan));
    const page = doc.getPage(0);
    page.drawRectangle({ x: 40, y: 40, width: 120, height: 40, borderWidth: 3 });
    doc.addPage([300, 300]).drawText('Appendix', { x: 40, y: 150, size: 24 });
    const stamped = join(scratch, 'stamped-scan.pdf');
    writeFileSync(stamped, await doc.save());
    const r = await call('compare-pdf', [scan, stamped], { compareBy: 'looks' });
    expect(r.status, r.error?.message).toBe(200);
    expect(r.props).toMatchObject({ identical: false, firstPages: 1, secondPages: 2, pagesChanged: 2 });
    expect(r.props.areasChanged).toBeGreaterThanOrEqual(2);
    expect(text(r.file, 2)).toContain('(no such page)');
    // The stamp is near the page's foot; the scanned table above it is not marked.
    const [left] = colourRows(r.file, 1, orangish);
    expect(left![0]).toBeGreaterThan(0.7);
    const itself = await call('compare-pdf', [scan, scan], { compareBy: 'looks' });
    expect(itself.props).toMatchObject({ identical: true, areasChanged: 0 });
  });
});
