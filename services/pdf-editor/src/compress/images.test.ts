import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compressionLevels } from '@quire/catalog';
import { greySimilarity, renderPage } from '@quire/service-kit';
import { recompressImages } from './images.ts';

const corpus = fileURLToPath(new URL('../../../../../shared/corpus/pdf/', import.meta.url));
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
  const source = join(corpus, name);
  const out = join(dir, `${name}-${level}.pdf`);
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
    const colours = (p: string) => images(p).map((i) => i.color);
    expect(colours(out)).toEqual(colours(source));
    expect(text(out)).toBe(text(source));
  });
});
