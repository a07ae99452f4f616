import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
} from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { compressionLevels } from '@quire/catalog';
import { greySimilarity, renderPage } from '@quire/pdf';
import { recompressImages } from './images.ts';

const corpus = fileURLToPath(new URL('../../../../../../shared/corpus/pdf/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'images-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const job = () => ({ workdir: dir, signal: new AbortController().signal, deadline: Date.now() + 120_000 });

/** pdfimages' listing: one row per image drawn, with its encoding, size and the resolution it is shown at. */
function images(path: string) {
  return execFileSync('pdfimages', ['-list', path])
    .toString()
    .split('\n')
    .slice(2)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c.length >= 14)
    .map((c) => ({
      type: c[2],
      width: +c[3]!,
      height: +c[4]!,
      color: c[5],
      enc: c[8],
      ppi: Math.max(+c[12]!, +c[13]!),
    }));
}

const text = (path: string) => execFileSync('pdftotext', ['-q', path, '-']).toString();

async function run(name: string, level: keyof typeof compressionLevels) {
  const source = name.startsWith('/') ? name : join(corpus, name);
  const out = join(dir, `${basename(name)}-${level}.pdf`);
  const report = await recompressImages(source, out, compressionLevels[level], job());
  expect(execFileSync('qpdf', ['--check', out]).toString()).toMatch(/No syntax or stream encoding errors/);
  return { source, out, report };
}

describe('recompressImages', () => {
  it('brings a scanned page down to the level’s resolution as a JPEG that still looks the same', async () => {
    const { source, out, report } = await run('camelot-image-scanned-table.pdf', 'recommended');
    const [before] = images(source);
    const [after] = images(out);
    expect(report).toMatchObject({ images: 1, recompressed: 1 });
    expect(before!.ppi).toBeGreaterThan(160);
    expect(after!.ppi).toBeLessThanOrEqual(152);
    expect(after!.enc).toBe('jpeg');
    expect(after!.width).toBeLessThan(before!.width);
    expect(statSync(out).size).toBeLessThan(statSync(source).size / 3);
    const [x, y] = await Promise.all([renderPage(source, 1, 72, job()), renderPage(out, 1, 72, job())]);
    expect(greySimilarity(x, y)).toBeGreaterThanOrEqual(compressionLevels.recommended.ssim);
  });

  it('goes further at a stronger level, and keeps more at a gentler one', async () => {
    const sizes = await Promise.all(
      (['low', 'extreme'] as const).map(
        async (l) => statSync((await run('camelot-image-scanned-table.pdf', l)).out).size,
      ),
    );
    expect(sizes[1]).toBeLessThan(sizes[0]!);
  });

  it('leaves bilevel scans, masks and palettes as they are', async () => {
    for (const name of [
      'pdfminer-pdf-with-jbig2.pdf',
      'pypdf-imagemagick-CCITTFaxDecode.pdf',
      'pypdf-grayscale-image.pdf',
    ]) {
      const { source, out, report } = await run(name, 'extreme');
      expect(report.recompressed, name).toBe(0);
      expect(images(out), name).toEqual(images(source));
    }
  });

  it('keeps grey images grey and the text of the pages', async () => {
    const { source, out } = await run('pdfjs-tracemonkey.pdf', 'extreme');
    const colours = (p: string) =>
      images(p)
        .filter((i) => i.type === 'image')
        .map((i) => i.color);
    expect(colours(out)).toEqual(colours(source));
    expect(text(out)).toBe(text(source));
  });

  it('keeps one copy of an image or font program stored twice, as a merge of two copies of a file has', async () => {
    const copy = join(dir, 'copy.pdf');
    copyFileSync(join(corpus, 'pypdf-google-doc-document.pdf'), copy);
    const merged = join(dir, 'merged.pdf');
    execFileSync('qpdf', ['--empty', '--pages', join(corpus, 'pypdf-google-doc-document.pdf'), copy, '--', merged]);
    const fontPrograms = (path: string) =>
      Object.values(
        JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=qpdf', path]).toString()).qpdf[1] as Record<
          string,
          { value?: Record<string, unknown> }
        >,
      )
        .filter((o) => o.value?.['/Type'] === '/FontDescriptor' && o.value['/FontFile2'])
        .map((o) => o.value!['/FontFile2']);
    const objectsOf = (path: string) =>
      new Set(
        execFileSync('pdfimages', ['-list', path])
          .toString()
          .split('\n')
          .slice(2)
          .map((l) => l.trim().split(/\s+/)[10])
          .filter(Boolean),
      );
    expect(objectsOf(merged).size).toBe(2);
    expect(new Set(fontPrograms(merged)).size).toBeGreaterThan(1);

    const { out, report } = await run(merged, 'low');
    expect(report.deduplicated).toBeGreaterThanOrEqual(2);
    expect(objectsOf(out).size).toBe(1);
    expect(new Set(fontPrograms(out)).size).toBe(new Set(fontPrograms(merged)).size / 2);
    expect(statSync(out).size).toBeLessThan(statSync(merged).size * 0.75);
    expect(text(out)).toBe(text(merged));
    for (const page of [1, 2]) {
      const [x, y] = await Promise.all([renderPage(merged, page, 72, job()), renderPage(out, page, 72, job())]);
      expect(greySimilarity(x, y), `page ${page}`).toBeGreaterThanOrEqual(0.999);
    }
  });

  it('drops a soft mask that hides nothing, and keeps one that does', async () => {
    const source = await fixture('masks.pdf', async (doc) => {
      const page = doc.addPage([300, 200]);
      for (const [i, alpha] of [255, 128].entries()) {
        const image = (data: Buffer, more: Record<string, unknown>) =>
          doc.context.register(
            doc.context.flateStream(data, {
              Type: 'XObject',
              Subtype: 'Image',
              Width: 64,
              Height: 64,
              BitsPerComponent: 8,
              ...more,
            }),
          );
        const mask = image(Buffer.alloc(64 * 64, alpha), { ColorSpace: 'DeviceGray' });
        const picture = image(Buffer.alloc(64 * 64 * 3, Buffer.from([200, 40, 40])), {
          ColorSpace: 'DeviceRGB',
          SMask: mask,
        });
        const name = page.node.newXObject('Im', picture);
        page.pushOperators(
          pushGraphicsState(),
          concatTransformationMatrix(120, 0, 0, 120, 20 + 140 * i, 20),
          drawObject(name),
          popGraphicsState(),
        );
      }
    });
    expect(images(source).filter((i) => i.type === 'smask')).toHaveLength(2);
    const { out, report } = await run(source, 'recommended');
    expect(report.opaqueMasks).toBe(1);
    expect(images(out).filter((i) => i.type === 'smask')).toHaveLength(1);
    const [x, y] = await Promise.all([renderPage(source, 1, 72, job()), renderPage(out, 1, 72, job())]);
    expect(greySimilarity(x, y)).toBeGreaterThanOrEqual(0.999);
  });

  it('brings a CMYK image down in its own inks, without a shift of colour', async () => {
    // 600 pixels drawn across one inch: four times what the recommended level keeps.
    const side = 600;
    const inks = Buffer.alloc(side * side * 4);
    for (let y = 0; y < side; y++)
      for (let x = 0; x < side; x++)
        inks.set([(x * 255) / side, (y * 255) / side, 60, ((x + y) * 255) / (2 * side)], (y * side + x) * 4);
    const source = await fixture('cmyk.pdf', async (doc) => {
      const page = doc.addPage([144, 144]);
      const image = doc.context.flateStream(inks, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: side,
        Height: side,
        ColorSpace: 'DeviceCMYK',
        BitsPerComponent: 8,
      });
      const name = page.node.newXObject('Im', doc.context.register(image));
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(72, 0, 0, 72, 36, 36),
        drawObject(name),
        popGraphicsState(),
      );
    });
    const { out, report } = await run(source, 'recommended');
    expect(report.recompressed).toBe(1);
    const [after] = images(out);
    expect(after).toMatchObject({ color: 'cmyk', enc: 'image', width: 150, height: 150 });
    expect(statSync(out).size).toBeLessThan(statSync(source).size / 4);
    const [x, y] = [source, out].map(colours);
    for (let c = 0; c < 3; c++) expect(Math.abs(x![c]! - y![c]!), `channel ${c}`).toBeLessThan(2);
  });
});

/** A PDF made with pdf-lib, for a case the corpus has no file of. */
async function fixture(name: string, build: (doc: PDFDocument) => Promise<void>): Promise<string> {
  const doc = await PDFDocument.create();
  await build(doc);
  const path = join(dir, name);
  writeFileSync(path, await doc.save());
  return path;
}

/** The mean red, green and blue of page 1 as poppler renders it at 72 dpi. */
function colours(path: string): number[] {
  const ppm = execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', path]);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
  const pixels = ppm.subarray(header[0].length);
  const sums = [0, 0, 0];
  for (let i = 0; i < pixels.length; i++) sums[i % 3]! += pixels[i]!;
  return sums.map((s) => s / (pixels.length / 3));
}
