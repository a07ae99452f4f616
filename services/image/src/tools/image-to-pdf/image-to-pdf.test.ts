import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  call,
  displayed,
  image,
  imageManifest,
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

/** Images the tool must refuse, by design, and why. */
const refused: Record<string, string> = {
  'sharp-65536x65536-uint32-limit.png': 'damaged_input', // pixel bomb
};

/** Under 1 the orientation or the content is wrong: a quarter turn or a mirror gives 40 and more here. */
const sameImage = 15;

/** BMP has no decoder in sharp: these are the same picture as pillow-hopper.tif. */
const referenceFor: Record<string, string> = {
  'pillow-hopper.bmp': 'pillow-hopper.tif',
  'pillow-hopper_rle8.bmp': 'pillow-hopper.tif',
};

const aspect = (s: { width: number; height: number }) => s.width / s.height;

describe('image-to-pdf on every image of the corpus', () => {
  const rows = imageManifest();

  it('has the corpus it expects', () => {
    expect(rows.length).toBeGreaterThanOrEqual(28);
  });

  for (const row of rows.filter((r) => !(r.file in refused))) {
    it(`${row.file}: one page per image or TIFF page, shaped as displayed, showing the image`, async () => {
      const source = image(row.file);
      const { path, properties } = await result(app(), 'image-to-pdf', [source]);
      expect(qpdfCheck(path)).toBe(0);
      const isTiff = /\.tiff?$/.test(row.file);
      const pages = isTiff ? row.frames : 1; // animations give their first frame
      const sizes = pageSizes(path);
      expect(sizes).toHaveLength(pages);
      expect(properties).toMatchObject({ pages, images: 1 });

      for (let p = 0; p < pages; p++) {
        // The page has the proportions of the image as displayed: EXIF orientations 5–8 swap them.
        let { width, height } = row;
        if (isTiff || width === undefined) ({ width, height } = await sharp(source, { page: p }).metadata());
        const swap = row.orientation >= 5;
        const shown = { width: swap ? height! : width!, height: swap ? width! : height! };
        expect(aspect(sizes[p]!)).toBeCloseTo(aspect(shown), 2);

        // And it shows the picture the right way round (the 280 MP one is checked by its bytes below).
        if (row.file.includes('giant')) continue;
        const reference = await displayed(image(referenceFor[row.file] ?? row.file), p);
        // ImageMagick keeps this PNG's EXIF in a text chunk that sharp does not read: turned 180° here.
        const expected = row.file.includes('imagemagick_orientation')
          ? await sharp(reference).rotate(180).toBuffer()
          : reference;
        // Small images are rendered larger, so that a half-pixel shift in rendering does not count.
        const dpi = (72 * Math.min(Math.max(shown.width, 256), 800)) / sizes[p]!.width;
        expect(await meanDifference(await renderPng(path, p + 1, dpi), expected)).toBeLessThan(sameImage);
      }
    });
  }
});

describe('every EXIF orientation, for JPEG (kept as it is) and PNG (rows kept as they are)', () => {
  // An asymmetric picture, 60×40, so that any turn or mirror shows.
  const base = () =>
    sharp(image('sharp-Landscape_1.jpg')).resize(60, 40, { fit: 'fill' }).extend({ right: 20, background: '#ff0000' });

  for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`orientation ${orientation}`, async () => {
      for (const format of ['jpeg', 'png'] as const) {
        const data = await base().withMetadata({ orientation }).toFormat(format).toBuffer();
        const { path } = await result(app(), 'image-to-pdf', [{ name: `o${orientation}.${format}`, data }]);
        const [size] = pageSizes(path);
        // 80×40 stored; 5–8 show it 40×80.
        expect(aspect(size!)).toBeCloseTo(orientation >= 5 ? 0.5 : 2, 2);
        const rendered = await renderPng(path, 1, 72);
        const diff = await meanDifference(rendered, await displayed(data));
        expect(diff, `${format} ${orientation}`).toBeLessThan(sameImage);
      }
    });
  }
});

describe('transparency', () => {
  it.each(['pillow-transparent.png', 'pillow-transparent.webp', 'sharp-Flag_of_the_Netherlands-alpha.png'])(
    '%s is kept as a soft mask: on the page it is the image laid over white, never over black',
    async (file) => {
      const source = image(file);
      const { path } = await result(app(), 'image-to-pdf', [source]);
      const { dict } = rawObject(path, pageImages(path)[0]!.object);
      expect(dict).toMatch(/\/SMask \d+ 0 R/);
      const { data: rgba, info } = await sharp(source).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const [size] = pageSizes(path);
      const page = await render(path, 1, (72 * info.width) / size!.width);
      expect(page.width).toBe(info.width);
      const w = info.width;
      let seeThrough = 0;
      let checked = 0;
      let worst = { error: 0, at: -1 };
      const word = (j: number) => rgba.readUInt32LE(j * 4);
      for (let i = w + 1; i < w * (info.height - 1) - 1; i += 3) {
        // Away from edges, where rendering blends neighbours: the pixel is like its eight neighbours.
        const around = [i - w - 1, i - w, i - w + 1, i - 1, i + 1, i + w - 1, i + w, i + w + 1];
        if (!around.every((j) => word(j) === word(i))) continue;
        checked++;
        const a = rgba[i * 4 + 3]!;
        if (a < 255) seeThrough++;
        for (let c = 0; c < 3; c++) {
          const over = (rgba[i * 4 + c]! * a + 255 * (255 - a)) / 255;
          const error = Math.abs(page.data[i * 3 + c]! - over);
          if (error > worst.error) worst = { error, at: i };
        }
      }
      expect(worst.error, `worst at pixel ${worst.at}`).toBeLessThan(8);
      expect(checked).toBeGreaterThan(1000);
      expect(seeThrough).toBeGreaterThan(100);
    },
  );

  it('keeps a large, varied alpha channel (its mask spans many compressed chunks)', async () => {
    const photo = sharp(image('textract-raw_text.jpg')); // 2000×1850
    const data = await photo
      .clone()
      .joinChannel(await photo.clone().toColourspace('b-w').negate().raw().toBuffer(), {
        raw: { width: 2000, height: 1850, channels: 1 },
      })
      .png()
      .toBuffer();
    const { path, cpuMs } = await result(app(), 'image-to-pdf', [{ name: 'varied.png', data }]);
    expect(cpuMs).toBeLessThan(3000);
    expect(rawObject(path, pageImages(path)[0]!.object).dict).toMatch(/\/SMask \d+ 0 R/);
    expect(await meanDifference(await renderPng(path, 1, 36), await displayed(data))).toBeLessThan(sameImage);
  });

  it('leaves out the mask of an alpha channel that is opaque everywhere', async () => {
    const data = await sharp(image('pillow-hopper.tif')).ensureAlpha(1).png().toBuffer();
    const { path } = await result(app(), 'image-to-pdf', [{ name: 'opaque.png', data }]);
    expect(rawObject(path, pageImages(path)[0]!.object).dict).not.toContain('/SMask');
  });
});

describe('PNG variants', () => {
  const hopper = () => sharp(image('pillow-hopper.tif'));
  const cases: [string, () => Promise<Buffer>, boolean][] = [
    ['8-bit grey', () => hopper().toColourspace('b-w').png().toBuffer(), true],
    ['16-bit grey', () => hopper().toColourspace('grey16').png().toBuffer(), false],
    ['16-bit RGB', () => hopper().toColourspace('rgb16').png().toBuffer(), false],
    ['palette', () => hopper().png({ palette: true }).toBuffer(), true],
    ['1-bit palette', () => hopper().png({ palette: true, colours: 2 }).toBuffer(), true],
    [
      'palette with transparency',
      () => sharp(image('pillow-transparent.png')).png({ palette: true }).toBuffer(),
      false,
    ],
    ['interlaced', () => hopper().png({ progressive: true }).toBuffer(), false],
    ['grey and alpha', () => sharp(image('pillow-transparent.png')).toColourspace('b-w').png().toBuffer(), false],
    ['16-bit RGBA', () => sharp(image('pillow-transparent.png')).toColourspace('rgb16').png().toBuffer(), false],
    ['Display P3 profile', () => hopper().withIccProfile('p3').png().toBuffer(), true],
  ];
  it.each(cases)('%s', async (name, make, asIs) => {
    const data = await make();
    const { path, properties } = await result(app(), 'image-to-pdf', [{ name: 'v.png', data }]);
    expect(qpdfCheck(path)).toBe(0);
    expect(properties.embeddedAsIs, name).toBe(asIs ? 1 : 0);
    const [size] = pageSizes(path);
    const { width } = await sharp(data).metadata();
    const rendered = await renderPng(path, 1, (72 * width!) / size!.width);
    expect(await meanDifference(rendered, await displayed(data))).toBeLessThan(sameImage);
  });
});

describe('page sizes', () => {
  const landscape = image('sharp-Landscape_1.jpg'); // 600×450 at 72 dpi
  const portrait = image('sharp-Portrait_6.jpg'); // 600×450 stored, shown 450×600

  it('fit: the image at its resolution, 72 dpi when it says none', async () => {
    const { path } = await result(app(), 'image-to-pdf', [
      landscape,
      image('pillow-hopper.jpg'),
      image('pillow-hopper.webp'),
    ]);
    const sizes = pageSizes(path);
    expect(sizes[0]).toEqual({ width: 600, height: 450 }); // 72 dpi in the file
    expect(sizes[1]).toEqual({ width: 96, height: 96 }); // 128 px at 96 dpi
    expect(sizes[2]).toEqual({ width: 128, height: 128 }); // WebP says nothing: 72 dpi
  });

  it.each([
    ['a4', 595.28, 841.89],
    ['letter', 612, 792],
  ])(
    '%s: the paper turned to follow the image, the image fitted inside a margin and centred',
    async (pageSize, short, long) => {
      const { path, properties } = await result(app(), 'image-to-pdf', [landscape, portrait], { pageSize });
      expect(properties.pageSize).toBe(pageSize);
      const [first, second] = pageSizes(path);
      expect(first!.width).toBeCloseTo(long, 0);
      expect(first!.height).toBeCloseTo(short, 0);
      expect(second!.width).toBeCloseTo(short, 0);
      expect(second!.height).toBeCloseTo(long, 0);
      for (const [p, shown] of [
        [1, { width: 600, height: 450 }],
        [2, { width: 450, height: 600 }],
      ] as const) {
        const page = await render(path, p, 72);
        // The box of non-white pixels is the image: centred, at least half an inch from every edge,
        // touching the margin on its limiting side, with the image's proportions.
        let [x0, y0, x1, y1] = [page.width, page.height, 0, 0];
        for (let y = 0; y < page.height; y++) {
          for (let x = 0; x < page.width; x++) {
            const i = (y * page.width + x) * 3;
            if (Math.min(page.data[i]!, page.data[i + 1]!, page.data[i + 2]!) < 235) {
              [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
            }
          }
        }
        const [left, top, right, bottom] = [x0, y0, page.width - 1 - x1, page.height - 1 - y1];
        expect(Math.min(left, top, right, bottom)).toBeGreaterThanOrEqual(34);
        expect(Math.min(left, top, right, bottom)).toBeLessThanOrEqual(39);
        expect(Math.abs(left - right)).toBeLessThanOrEqual(3);
        expect(Math.abs(top - bottom)).toBeLessThanOrEqual(3);
        expect((x1 - x0 + 1) / (y1 - y0 + 1)).toBeCloseTo(aspect(shown), 1);
      }
    },
  );
});

describe('several files', () => {
  it('makes one page per file in the order sent, and the other order gives the other pages', async () => {
    const files = [
      image('sharp-Landscape_1.jpg'),
      image('pillow-hopper.bmp'),
      image('sharp-Portrait_6.jpg'),
      image('pillow-multipage.tiff'),
    ];
    const { path, properties } = await result(app(), 'image-to-pdf', files);
    expect(properties).toMatchObject({ pages: 6, images: 4 });
    const shapes = pageSizes(path).map((s) => Number(aspect(s).toFixed(2)));
    expect(shapes).toEqual([1.33, 1, 0.75, 1, 1, 1]);
    const reversed = await result(app(), 'image-to-pdf', [...files].reverse());
    expect(pageSizes(reversed.path).map((s) => Number(aspect(s).toFixed(2)))).toEqual([1, 1, 1, 0.75, 1, 1.33]);
    // The picture on each page is its file's: the first page shows the landscape, the last the hopper.
    const first = await renderPng(path, 1, 72);
    expect(await meanDifference(first, await displayed(image('sharp-Landscape_1.jpg')))).toBeLessThan(sameImage);
  });
});

describe('refusals', () => {
  it('answers the 65536×65536 pixel bomb with a clear 422 at once, from its header', async () => {
    const before = process.memoryUsage().rss;
    const r = await call(app(), 'image-to-pdf', [image('sharp-65536x65536-uint32-limit.png')]);
    expect(r.status).toBe(422);
    expect(r.error?.code).toBe('damaged_input');
    expect(r.error?.message).toBe(
      'This image is too large: "sharp-65536x65536-uint32-limit.png" has 65536×65536 pixels; the limit is 300 megapixels.',
    );
    expect(r.cpuMs).toBeLessThan(1000);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses one bomb among good images before doing any work', async () => {
    const r = await call(app(), 'image-to-pdf', [
      image('sharp-Landscape_1.jpg'),
      image('sharp-65536x65536-uint32-limit.png'),
    ]);
    expect(r.status).toBe(422);
    expect(r.error?.message).toContain('65536×65536');
  });

  it('refuses a BMP whose header claims 100000×100000 pixels, without decoding it', async () => {
    const file = Buffer.alloc(14 + 40 + 4 + 2);
    file.write('BM', 0, 'latin1');
    file.writeUInt32LE(file.length, 2);
    file.writeUInt32LE(14 + 40 + 4, 10);
    file.writeUInt32LE(40, 14);
    file.writeInt32LE(100_000, 18);
    file.writeInt32LE(100_000, 22);
    file.writeUInt16LE(1, 26);
    file.writeUInt16LE(8, 28);
    file.writeUInt32LE(1, 30); // RLE8: a few bytes could fill it all
    file.writeUInt32LE(1, 46);
    file.writeUInt16LE(0x0100, 58); // end of bitmap
    const r = await call(app(), 'image-to-pdf', [{ name: 'bomb.bmp', data: file }]);
    expect(r.status).toBe(422);
    expect(r.error?.message).toBe(
      'This image is too large: "bomb.bmp" has 100000×100000 pixels; the limit for BMP images is 50 megapixels.',
    );
  });

  it('refuses a file that is no image, for either tool, as an unsupported type', async () => {
    for (const tool of ['image-to-pdf', 'jpg-to-pdf']) {
      const r = await call(app(), tool, [{ name: 'notes.png', data: Buffer.from('just text\n') }]);
      expect(r.status, tool).toBe(415);
      expect(r.error?.code).toBe('unsupported_type');
    }
  });

  it('refuses damaged images as damaged, not with a broken PDF', async () => {
    const png = readFileSync(image('pillow-transparent.png'));
    const jpeg = readFileSync(image('sharp-Landscape_1.jpg'));
    const garbled = Buffer.from(png);
    for (let i = 200; i < 2000; i++) garbled[i]! ^= 0x55;
    for (const [name, data] of [
      ['cut.png', png.subarray(0, png.length / 2)],
      ['garbled.png', garbled],
      ['cut.jpg', jpeg.subarray(0, 3000)],
      ['header-only.jpg', jpeg.subarray(0, 300)],
    ] as const) {
      const r = await call(app(), 'image-to-pdf', [{ name, data }]);
      expect(r.status, name).toBe(422);
      expect(r.error?.code).toBe('damaged_input');
      expect(r.error?.message).toBe(
        `"${name}" could not be read as ${name.endsWith('png') ? 'a PNG' : 'a JPEG'} image.`,
      );
    }
  });

  it('names the option and its values when pageSize is wrong', async () => {
    const r = await call(app(), 'image-to-pdf', [image('pillow-hopper.jpg')], { pageSize: 'a3' });
    expect(r.status).toBe(400);
    expect(r.error?.message).toContain('pageSize');
  });
});

describe('result', () => {
  it('is named after the first image and says what it did', async () => {
    const r = await result(app(), 'image-to-pdf', [image('pillow-hopper.bmp'), image('pillow-hopper.jpg')]);
    expect(decodeURIComponent(r.headers['x-quire-output-name']!)).toBe('pillow-hopper.pdf');
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.properties).toMatchObject({ bytes: r.body.length, pages: 2, images: 2, embeddedAsIs: 1, pageSize: 'fit' });
  });
});
