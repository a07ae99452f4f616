import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { findTool } from '@quire/catalog';
import { isHeic, sniffKind } from './sniff.ts';
import { uploadKind } from './upload-kind.ts';

const dir = mkdtempSync(join(tmpdir(), 'image-kinds-'));
let n = 0;
const file = (data: Buffer | string) => {
  const path = join(dir, `f${++n}`);
  writeFileSync(path, data);
  return path;
};

const picture = () => sharp({ create: { width: 24, height: 16, channels: 4, background: '#ff000080' } });

/** The same file with its `ftyp` box's major brand and compatible brands replaced (same length). */
function withBrands(data: Buffer, major: string, compatible: string[]): Buffer {
  const out = Buffer.from(data);
  const size = out.readUInt32BE(0);
  expect(out.toString('latin1', 4, 8)).toBe('ftyp');
  expect(16 + compatible.length * 4).toBe(size);
  out.write(major, 8, 'latin1');
  compatible.forEach((b, i) => out.write(b, 16 + i * 4, 'latin1'));
  return out;
}

describe('images told by their bytes', async () => {
  const avif = await picture().avif().toBuffer();
  const brandCount = (avif.readUInt32BE(0) - 16) / 4;
  const pad = (brands: string[]) => [...brands, ...Array<string>(brandCount - brands.length).fill('mif1')];

  it.each([
    ['AVIF as libheif writes it (major brand avif)', () => avif, 'avif'],
    [
      'AVIF whose major brand is mif1, avif among the compatible',
      () => withBrands(avif, 'mif1', pad(['avif'])),
      'avif',
    ],
    ['an AVIF sequence (avis)', () => withBrands(avif, 'avis', pad(['msf1'])), 'avif'],
    [
      'AVIF cut after its first 40 bytes (its header says AVIF; decoding will say damaged)',
      () => avif.subarray(0, 40),
      'avif',
    ],
    ['HEIC (HEVC-coded), which has no decoder here', () => withBrands(avif, 'heic', pad(['mif1'])), undefined],
    ['HEIC under mif1', () => withBrands(avif, 'mif1', pad(['heic'])), undefined],
    ['an MP4 video', () => withBrands(avif, 'isom', pad(['mp41'])), undefined],
    ['text named .avif', () => Buffer.from('ftyp avif, not really\n'.repeat(10)), undefined],
  ])('%s', async (_what, make, kind) => {
    expect(await sniffKind(file(make()))).toBe(kind);
  });

  it.each([
    ['WebP', () => picture().webp().toBuffer(), 'webp'],
    ['animated WebP', () => animation().then((frames) => frames.webp({ loop: 0 }).toBuffer()), 'webp'],
    ['TIFF', () => picture().tiff().toBuffer(), 'tiff'],
    ['GIF', () => picture().gif().toBuffer(), 'gif'],
  ] as const)('%s', async (_what, make, kind) => {
    expect(await sniffKind(file(await make()))).toBe(kind);
  });

  it('names a HEIC file as such, and nothing else', async () => {
    expect(await isHeic(file(withBrands(avif, 'heic', pad(['mif1']))))).toBe(true);
    expect(await isHeic(file(withBrands(avif, 'mif1', pad(['heix']))))).toBe(true);
    expect(await isHeic(file(avif))).toBe(false);
    expect(await isHeic(file(withBrands(avif, 'isom', pad(['mp41']))))).toBe(false);
    expect(await isHeic(file('hello'))).toBe(false);
  });

  it('is an upload both image tools take, and no tool that takes only some images', async () => {
    const path = file(avif);
    expect(await uploadKind(findTool('image-to-pdf')!, path)).toBe('avif');
    expect(await uploadKind(findTool('jpg-to-pdf')!, path)).toBe('avif');
    expect(await uploadKind(findTool('pdf-ocr')!, path)).toBeUndefined();
    const webp = file(await picture().webp().toBuffer());
    expect(await uploadKind(findTool('jpg-to-pdf')!, webp)).toBe('webp');
  });
});

/** Three frames of 8×8 as one animation. */
async function animation() {
  const frames = await Promise.all(
    ['#f00', '#0f0', '#00f'].map((c) =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: c } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } });
}
