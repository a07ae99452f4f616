import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { check, corpus, pages, pdf, rotations, scratch, text, useEditor } from '../../../test/helpers.ts';
import { cut, differingShare, render, type Grey } from '../../../test/render.ts';

const { call } = useEditor();
const tracemonkey = pdf('pdfjs-tracemonkey.pdf');
const rotated = pdf('qpdf-rotated-20-pages.pdf');

const round = (n: number) => Math.round(n * 100) / 100;

/** Each page's crop box, as [x, y, width, height], rounded to a hundredth of a point. */
async function cropBoxes(file: string): Promise<number[][]> {
  const doc = await PDFDocument.load(readFileSync(file), { updateMetadata: false });
  return doc.getPages().map((p) => {
    const b = p.getCropBox();
    return [b.x, b.y, b.width, b.height].map(round);
  });
}

/** The result's page, rendered at 72 dpi (a pixel a point), is the original's rendering cut at (left, top). */
function expectCutOf(result: string, source: string, page: number, left: number, top: number) {
  const after = render(result, page, 72);
  const before: Grey = render(source, page, 72);
  const expected = cut(before, left, top, after.width, after.height);
  expect(differingShare(after, expected), `page ${page}`).toBeLessThan(0.002);
}

/** The words pdftotext finds inside the page as shown (its crop box). */
const shownWords = (file: string, page: number) =>
  execFileSync('pdftotext', ['-cropbox', '-f', String(page), '-l', String(page), file, '-'])
    .toString()
    .split(/\s+/)
    .filter(Boolean);

describe('crop-pdf', () => {
  it('takes the margins asked for off each side, showing exactly that part of the page', async () => {
    const r = await call('crop-pdf', [tracemonkey], {
      mode: 'margins',
      unit: 'pt',
      top: '72',
      right: '100',
      bottom: '50',
      left: '36',
    });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(pages(r.file)).toBe(14);
    expect(check(r.file)).toBe(0);
    expect(new Set((await cropBoxes(r.file)).map(String))).toEqual(new Set([[36, 50, 476, 670].join()]));
    for (const p of [1, 7, 14]) expectCutOf(r.file, tracemonkey, p, 36, 72);
    // The words inside the box are kept; those of the cut-off running title are not shown.
    expect(shownWords(r.file, 1)).toEqual(expect.arrayContaining(['Trace-based', 'Just-in-Time']));
    expect(text(r.file)).toBe(text(tracemonkey));
  });

  it('reads margins in millimetres, on the chosen pages only', async () => {
    const r = await call('crop-pdf', [tracemonkey], {
      mode: 'margins',
      top: '10',
      right: '10',
      bottom: '10',
      left: '10',
      pages: '2,4-5',
    });
    const mm10 = 720 / 25.4;
    const boxes = await cropBoxes(r.file);
    const cropped = [mm10, mm10, 612 - 2 * mm10, 792 - 2 * mm10].map(round);
    expect(boxes.slice(0, 6)).toEqual([
      [0, 0, 612, 792],
      cropped,
      [0, 0, 612, 792],
      cropped,
      cropped,
      [0, 0, 612, 792],
    ]);
    expect(render(r.file, 3, 36).pixels.equals(render(tracemonkey, 3, 36).pixels)).toBe(true);
    expect(r.props).toMatchObject({ pages: 14, cropped: 3 });
  });

  it('crops pages turned every way by their sides as shown', async () => {
    expect(rotations(rotated).slice(0, 4)).toEqual([0, 180, 270, 90]);
    const r = await call('crop-pdf', [rotated], { mode: 'margins', unit: 'pt', top: '100', left: '20', pages: '1-4' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(rotations(r.file)).toEqual(rotations(rotated));
    for (let p = 1; p <= 4; p++) {
      const [before, after] = [render(rotated, p, 72), render(r.file, p, 72)];
      expect([after.width, after.height], `page ${p}`).toEqual([before.width - 20, before.height - 100]);
      expectCutOf(r.file, rotated, p, 20, 100);
    }
  });

  it('crops to a box given from the top-left corner of the page as shown', async () => {
    const r = await call('crop-pdf', [tracemonkey], { mode: 'box', unit: 'pt', box: '50, 100, 250, 300', pages: '1' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect((await cropBoxes(r.file))[0]).toEqual([50, 392, 250, 300]);
    expectCutOf(r.file, tracemonkey, 1, 50, 100);
  });

  it('trims the white margins in trim mode, the default, keeping everything drawn', async () => {
    for (const [file, page] of [
      [tracemonkey, 1],
      [pdf('qpdf-11-pages.pdf'), 3],
      [rotated, 3],
    ] as const) {
      const r = await call('crop-pdf', [file], { pages: String(page) });
      expect(r.status, JSON.stringify(r.error)).toBe(200);
      const [x, y, width, height] = (await cropBoxes(r.file))[page - 1] as [number, number, number, number];
      expect(width * height, file).toBeLessThan(0.9 * 612 * 792);
      // Every word is inside the box.
      expect(shownWords(r.file, page).sort(), file).toEqual(shownWords(file, page).sort());
      // And every drawn pixel: the result is the original's rendering cut at the box, as shown.
      const turn = rotations(file)[page - 1]!;
      const shownLeft = { 0: x, 90: y, 180: 612 - x - width, 270: 792 - y - height }[turn as 0 | 90 | 180 | 270];
      const shownTop = { 0: 792 - y - height, 90: x, 180: y, 270: 612 - x - width }[turn as 0 | 90 | 180 | 270];
      const after = render(r.file, page, 72);
      const before = render(file, page, 72);
      const inkOf = (g: Grey) => g.pixels.filter((v) => v < 200).length;
      expect(inkOf(after), file).toBe(inkOf(before));
      expect(
        differingShare(after, cut(before, Math.round(shownLeft), Math.round(shownTop), after.width, after.height)),
        `${file} ${[x, y, width, height].join()}`,
      ).toBeLessThan(0.01);
    }
  });

  it('leaves a blank page as it is in trim mode, the default', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([300, 400]);
    const blank = join(scratch, 'blank.pdf');
    writeFileSync(blank, await doc.save());
    const r = await call('crop-pdf', [blank]);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(await cropBoxes(r.file)).toEqual([[0, 0, 300, 400]]);
  });

  it('crops within the boxes of a page away from the origin', async () => {
    const doc = await PDFDocument.load(readFileSync(tracemonkey), { updateMetadata: false });
    doc.getPage(0).setMediaBox(-100, -50, 712, 842);
    doc.getPage(0).setCropBox(0, 0, 612, 792);
    const moved = join(scratch, 'moved.pdf');
    writeFileSync(moved, await doc.save());
    const r = await call('crop-pdf', [moved], { mode: 'margins', unit: 'pt', left: '10', bottom: '20', pages: '1' });
    expect((await cropBoxes(r.file))[0]).toEqual([10, 20, 602, 772]);
    expectCutOf(r.file, moved, 1, 10, 0);
  });

  it('crops an encrypted PDF opened with its password', async () => {
    const file = join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf');
    const r = await call('crop-pdf', [file], { password: 'user', mode: 'margins', unit: 'pt', top: '100' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(pages(r.file)).toBe(20);
    expect((await cropBoxes(r.file))[0]![3]).toBe(692);
    const wrong = await call('crop-pdf', [file], { password: 'not-it' });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
  });

  it('refuses a crop that leaves nothing or reaches past the page, naming the field', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { mode: 'margins', unit: 'pt', left: '400', right: '300' },
        /"left" and "right" leave nothing: page 1 is 612 pt wide/,
      ],
      [{ mode: 'margins', top: '150', bottom: '150' }, /"top" and "bottom" leave nothing/],
      [{ mode: 'box', unit: 'pt', box: '100,100,600,100' }, /"box".*reaches past the page/],
      [{ mode: 'box', box: '10,10,0,50' }, /"box".*more than 0/],
      [{ mode: 'box' }, /"box" is needed/],
      [{ mode: 'box', box: '1,2,3' }, /"box"/],
      [{ top: '-5' }, /"top"/],
      [{ unit: 'in' }, /"unit"/],
      [{ pages: '15' }, /"pages".*14 pages/],
    ];
    for (const [fields, message] of cases) {
      const r = await call('crop-pdf', [tracemonkey], fields);
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.error?.message, JSON.stringify(fields)).toMatch(message);
    }
    const notPdf = await call('crop-pdf', [join(corpus, 'images/sharp-Landscape_3.jpg')]);
    expect(notPdf.status).toBeGreaterThanOrEqual(400);
    expect(notPdf.status).toBeLessThan(500);
  });
});
