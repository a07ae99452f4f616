import { readFileSync } from 'node:fs';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  call,
  displayed,
  image,
  meanDifference,
  pageImages,
  pageSizes,
  qpdfCheck,
  rawObject,
  render,
  renderPng,
  result,
} from '../../../test/helpers.ts';
import { useImageService } from '../../../test/use-image.ts';

const app = useImageService();

const aspect = (s: { width: number; height: number }) => s.width / s.height;

/** A solid picture of the given size. */
const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

/**
 * 60×40: its left half opaque blue, its right half fully transparent over black samples, so that
 * a lost alpha channel shows black and a kept one shows the page's white.
 */
function halfTransparent(): Sharp {
  const data = Buffer.alloc(60 * 40 * 4);
  for (let y = 0; y < 40; y++)
    for (let x = 0; x < 60; x++) {
      const i = (y * 60 + x) * 4;
      if (x < 30) data.set([0, 0, 255, 255], i);
      else data.set([0, 0, 0, 0], i);
    }
  return sharp(data, { raw: { width: 60, height: 40, channels: 4 } });
}

/** The RGB of a pixel of a page rendered one pixel a point. */
async function pixel(path: string, page: number, x: number, y: number): Promise<number[]> {
  const r = await render(path, page, 72);
  const i = (y * r.width + x) * 3;
  return [r.data[i]!, r.data[i + 1]!, r.data[i + 2]!];
}

const near = (got: number[], want: number[], by = 12) =>
  got.every((v, i) => Math.abs(v - want[i]!) <= by) || `${got.join(',')} is not near ${want.join(',')}`;

/** What both tools take, converted by each. */
const tools = ['image-to-pdf', 'jpg-to-pdf'] as const;

describe('AVIF, WebP and TIFF, by both image tools', () => {
  it.each(tools)('%s: an AVIF is one page shaped as the image, showing it', async (tool) => {
    const data = await sharp(image('sharp-Landscape_1.jpg')).resize(90, 60, { fit: 'fill' }).avif().toBuffer();
    const { path, properties } = await result(app(), tool, [{ name: 'photo.avif', data }]);
    expect(qpdfCheck(path)).toBe(0);
    expect(properties).toMatchObject({ pages: 1, images: 1, embeddedAsIs: 0 });
    // The result passed the verifier's checks of image tools (catalog: opens, pages per file), not around them.
    expect(properties.checks).toEqual(['opens', 'pages']);
    const sizes = pageSizes(path);
    expect(sizes).toEqual([{ width: 90, height: 60 }]); // no resolution in an AVIF: 72 dpi
    expect(await meanDifference(await renderPng(path, 1, 72 * 4), await displayed(data))).toBeLessThan(15);
  });

  it.each(tools)('%s: a WebP is one page shaped as the image, showing it', async (tool) => {
    const data = await solid(50, 100, '#20a040').webp().toBuffer();
    const { path } = await result(app(), tool, [{ name: 'tall.webp', data }]);
    expect(pageSizes(path).map(aspect)).toEqual([0.5]);
    expect(near(await pixel(path, 1, 25, 50), [0x20, 0xa0, 0x40])).toBe(true);
  });

  it.each(tools)('%s: every page of a multi-page TIFF is a page, in order', async (tool) => {
    const colours = ['#ff0000', '#00ff00', '#0000ff'];
    const frames = await Promise.all(colours.map((c) => solid(30, 20, c).png().toBuffer()));
    const data = await sharp(frames, { join: { animated: true } })
      .tiff()
      .toBuffer();
    expect((await sharp(data).metadata()).pages).toBe(3);
    const { path, properties } = await result(app(), tool, [{ name: 'scan.tiff', data }]);
    expect(properties).toMatchObject({ pages: 3, images: 1, checks: ['opens', 'pages'] });
    expect(pageSizes(path).map(aspect)).toEqual([1.5, 1.5, 1.5]);
    for (const [p, rgb] of [
      [1, [255, 0, 0]],
      [2, [0, 255, 0]],
      [3, [0, 0, 255]],
    ] as const)
      expect(near(await pixel(path, p, 15, 10), [...rgb])).toBe(true);
  });

  it('a 10-bit AVIF keeps its colours', async () => {
    const data = await solid(40, 40, '#c08040').avif({ bitdepth: 10 }).toBuffer();
    expect((await sharp(data).metadata()).depth).toBe('ushort');
    const { path } = await result(app(), 'image-to-pdf', [{ name: 'deep.avif', data }]);
    expect(near(await pixel(path, 1, 20, 20), [0xc0, 0x80, 0x40])).toBe(true);
  });

  it('a grey AVIF stays grey', async () => {
    const data = await solid(40, 40, '#808080').toColourspace('b-w').avif().toBuffer();
    const { path } = await result(app(), 'image-to-pdf', [{ name: 'grey.avif', data }]);
    expect(near(await pixel(path, 1, 20, 20), [128, 128, 128])).toBe(true);
  });

  it('mixes the new kinds with the old, one page per image and per TIFF page', async () => {
    const files = [
      { name: 'a.avif', data: await solid(40, 20, '#f00').avif().toBuffer() },
      { name: 'b.webp', data: await solid(20, 40, '#0f0').webp().toBuffer() },
      image('pillow-multipage.tiff'),
      image('pillow-hopper.jpg'),
    ];
    const { path, properties } = await result(app(), 'jpg-to-pdf', files);
    expect(properties).toMatchObject({ pages: 6, images: 4, embeddedAsIs: 1 });
    expect(pageSizes(path).map(aspect)).toEqual([2, 0.5, 1, 1, 1, 1]);
  });
});

describe('transparency in the new kinds: on white, never on black', () => {
  const cases: [string, () => Promise<Buffer>][] = [
    ['WebP', () => halfTransparent().webp({ lossless: true }).toBuffer()],
    ['lossy WebP', () => halfTransparent().webp({ quality: 80, alphaQuality: 100 }).toBuffer()],
    ['AVIF', () => halfTransparent().avif({ lossless: true }).toBuffer()],
    ['lossy AVIF', () => halfTransparent().avif({ quality: 60 }).toBuffer()],
    ['TIFF', () => halfTransparent().tiff({ compression: 'lzw' }).toBuffer()],
  ];
  it.each(cases)('%s', async (kind, make) => {
    const data = await make();
    expect((await sharp(data).metadata()).hasAlpha).toBe(true);
    const { path } = await result(app(), 'image-to-pdf', [
      { name: `half.${kind.split(' ').at(-1)!.toLowerCase()}`, data },
    ]);
    expect(pageSizes(path)).toEqual([{ width: 60, height: 40 }]);
    expect(rawObject(path, pageImages(path)[0]!.object).dict).toMatch(/\/SMask \d+ 0 R/);
    expect(near(await pixel(path, 1, 10, 20), [0, 0, 255], 16)).toBe(true);
    expect(near(await pixel(path, 1, 50, 20), [255, 255, 255], 4)).toBe(true);
    expect(near(await pixel(path, 1, 58, 2), [255, 255, 255], 4)).toBe(true);
  });
});

describe('EXIF orientation and HEIF rotation in the new kinds', () => {
  // An asymmetric picture, 60×40 with a red band on the right, so that any turn or mirror shows.
  const base = () =>
    sharp(image('sharp-Landscape_1.jpg')).resize(60, 40, { fit: 'fill' }).extend({ right: 20, background: '#ff0000' });

  // WebP and TIFF carry EXIF orientation; an AVIF is turned by its irot and imir boxes (which sharp
  // writes for an orientation) and libheif applies them as it decodes.
  for (const format of ['webp', 'tiff', 'avif'] as const) {
    it(`${format}: all eight orientations shown as a viewer shows them`, async () => {
      for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
        const data = await base().withMetadata({ orientation }).toFormat(format).toBuffer();
        const { path } = await result(app(), 'image-to-pdf', [{ name: `o${orientation}.${format}`, data }]);
        const [size] = pageSizes(path);
        expect(aspect(size!), `${format} ${orientation}`).toBeCloseTo(orientation >= 5 ? 0.5 : 2, 2);
        const diff = await meanDifference(await renderPng(path, 1, 72), await displayed(data));
        expect(diff, `${format} ${orientation}`).toBeLessThan(15);
        // The red band is where the orientation puts it: right (1), left (2, mirrored), top (6 turns it a quarter).
        if (orientation === 1) expect(near(await pixel(path, 1, 75, 20), [255, 0, 0], 40)).toBe(true);
        if (orientation === 2) expect(near(await pixel(path, 1, 4, 20), [255, 0, 0], 40)).toBe(true);
        if (orientation === 6) expect(near(await pixel(path, 1, 20, 75), [255, 0, 0], 40)).toBe(true);
      }
    });
  }
});

describe('bad input: a clear 4xx, never a 5xx', () => {
  it('an AVIF cut short is damaged', async () => {
    const avif = await sharp(image('sharp-Landscape_1.jpg')).resize(200).avif().toBuffer();
    for (const cut of [40, 400, Math.floor(avif.length / 2)]) {
      const r = await call(app(), 'image-to-pdf', [{ name: 'cut.avif', data: avif.subarray(0, cut) }]);
      expect(r.status, `${cut} bytes`).toBe(422);
      expect(r.error?.code).toBe('damaged_input');
      expect(r.error?.message).toBe('"cut.avif" could not be read as an AVIF image.');
    }
  });

  it('a .avif that is text is not a type the tool takes', async () => {
    const r = await call(app(), 'jpg-to-pdf', [{ name: 'photo.avif', data: Buffer.from('not an image\n'.repeat(50)) }]);
    expect(r.status).toBe(415);
    expect(r.error?.code).toBe('unsupported_type');
    expect(r.error?.message).toBe(
      '"photo.avif" is not a file this tool can read (it takes JPEG, PNG, BMP, GIF, WebP, TIFF, AVIF).',
    );
  });

  it('a HEIC photo is refused as HEIC, before any decoding', async () => {
    const avif = await solid(16, 16, '#888').avif().toBuffer();
    const heic = Buffer.from(avif);
    heic.write('heic', 8, 'latin1');
    for (let at = 16; at < heic.readUInt32BE(0); at += 4) heic.write('mif1', at, 'latin1');
    const r = await call(app(), 'image-to-pdf', [{ name: 'IMG_0001.HEIC', data: heic }]);
    expect(r.status).toBe(415);
    expect(r.error?.code).toBe('unsupported_type');
    expect(r.error?.message).toMatch(
      /^"IMG_0001.HEIC" is a HEIC image, which this tool cannot read .*save it as JPEG first\.$/,
    );
  });

  it('an AVIF whose header claims 100000×100000 pixels is refused from its header, at once', async () => {
    const avif = Buffer.from(await solid(64, 48, '#0a0').avif().toBuffer());
    const ispe = avif.indexOf('ispe');
    expect(avif.readUInt32BE(ispe + 8)).toBe(64);
    avif.writeUInt32BE(100_000, ispe + 8);
    avif.writeUInt32BE(100_000, ispe + 12);
    const r = await call(app(), 'image-to-pdf', [{ name: 'bomb.avif', data: avif }]);
    expect(r.status).toBe(422);
    expect(r.error?.code).toBe('damaged_input');
    expect(r.error?.message).toBe(
      'This image is too large: "bomb.avif" has 100000×100000 pixels; the limit for AVIF images is 50 megapixels.',
    );
    expect(r.cpuMs).toBeLessThan(1000);
  });

  it('an AVIF whose header claims a size under the limit that its data does not hold is damaged', async () => {
    const avif = Buffer.from(await solid(64, 48, '#0a0').avif().toBuffer());
    const ispe = avif.indexOf('ispe');
    avif.writeUInt32BE(7000, ispe + 8);
    avif.writeUInt32BE(7000, ispe + 12);
    const r = await call(app(), 'image-to-pdf', [{ name: 'liar.avif', data: avif }]);
    expect(r.status).toBe(422);
    expect(r.error?.code).toBe('damaged_input');
  });

  it('an animated WebP gives its first frame, as an animated GIF does', async () => {
    const frames = await Promise.all(['#ff0000', '#00ff00'].map((c) => solid(30, 20, c).png().toBuffer()));
    const data = await sharp(frames, { join: { animated: true } })
      .webp({ loop: 0, lossless: true })
      .toBuffer();
    expect((await sharp(data).metadata()).pages).toBe(2);
    const { path, properties } = await result(app(), 'image-to-pdf', [{ name: 'moving.webp', data }]);
    expect(properties).toMatchObject({ pages: 1 });
    expect(pageSizes(path)).toEqual([{ width: 30, height: 20 }]);
    expect(near(await pixel(path, 1, 15, 10), [255, 0, 0])).toBe(true);
  });

  it('the corpus AVIF converts, and its cut-off copy is damaged', async () => {
    const { path } = await result(app(), 'image-to-pdf', [image('pillow-hopper.avif')]);
    expect(pageSizes(path)).toEqual([{ width: 128, height: 128 }]);
    const r = await call(app(), 'image-to-pdf', [
      { name: 'hopper.avif', data: readFileSync(image('pillow-hopper.avif')).subarray(0, 1500) },
    ]);
    expect(r.status).toBe(422);
  });
});
