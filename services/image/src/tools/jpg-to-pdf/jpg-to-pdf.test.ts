import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  image,
  imageManifest,
  meanDifference,
  pageImages,
  pageSizes,
  qpdfCheck,
  rawObject,
  renderPng,
  result,
} from '../../../test/helpers.ts';
import { useImageService } from '../../../test/use-image.ts';

const app = useImageService();

describe('JPEG pass-through', () => {
  const jpegs = imageManifest().filter((r) => r.file.endsWith('.jpg'));

  it.each(jpegs.map((r) => r.file))('%s goes in as it is, byte for byte, whatever its orientation', async (file) => {
    const { path, properties } = await result(app(), 'jpg-to-pdf', [image(file)]);
    const [img] = pageImages(path);
    const { dict, stream } = rawObject(path, img!.object);
    expect(dict).toContain('/DCTDecode');
    expect(stream.equals(readFileSync(image(file)))).toBe(true);
    expect(properties.embeddedAsIs).toBe(1);
  });

  it('keeps the colours of an Adobe CMYK JPEG (inverted samples undone by /Decode)', async () => {
    const file = image('pillow-pil_sample_cmyk.jpg');
    const { path } = await result(app(), 'jpg-to-pdf', [file]);
    const { dict } = rawObject(path, pageImages(path)[0]!.object);
    expect(dict).toMatch(/\/ColorSpace \/DeviceCMYK/);
    expect(dict).toMatch(/\/Decode \[ 1 0 1 0 1 0 1 0 \]/);
    const reference = await sharp(file).toColourspace('srgb').png().toBuffer();
    const rendered = await renderPng(path, 1, 72);
    const inverted = await sharp(reference).negate().png().toBuffer();
    const diff = await meanDifference(rendered, reference);
    // Poppler's CMYK to RGB is simpler than sharp's colour-managed one, hence the allowance; inverted
    // colours would be far beyond it.
    expect(diff).toBeLessThan(20);
    expect(await meanDifference(inverted, reference)).toBeGreaterThan(100);
  });

  it('turns the 280 MP JPEG into a page at once, in little memory, without decoding it', async () => {
    const file = image('sharp-giant-image-20000x14000.jpg');
    const before = process.memoryUsage().rss;
    const { path, cpuMs } = await result(app(), 'jpg-to-pdf', [file]);
    // The tool takes well under a second of this process's time; the kit's checks of the result
    // (qpdf --check, a rendering at 9 dpi) run in processes of their own, in about 12 MB each.
    expect(cpuMs).toBeLessThan(1000);
    // Decoding it would take 280 MB at the least.
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
    const [img] = pageImages(path);
    expect(img).toMatchObject({ width: 20000, height: 14000 });
    expect(rawObject(path, img!.object).stream.equals(readFileSync(file))).toBe(true);
    // 384 dpi (151 dots a centimetre) as the file says: 20000 px = 52 in = 3750 pt.
    const [size] = pageSizes(path);
    expect(size!.width).toBeCloseTo(3750, -1);
    expect(qpdfCheck(path)).toBe(0);
  });
});
