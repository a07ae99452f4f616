import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { fileKinds } from '@quire/catalog';
import { ToolError } from '@quire/base';
import { readStart } from '@quire/detect';
import type { ToolInput } from '@quire/http';
import { limits } from '../config.ts';
import type { ColorSpace, PdfImage } from '../pdf/writer.ts';
import { BmpError, decodeBmp, readBmpHeader } from './bmp.ts';
import { orientationFromPngComments } from './exif.ts';
import { colorTransform, embeddable, invertedCmyk, readJpegHeader, type JpegHeader } from './jpeg.ts';
import { allOpaque, readPngLayout, type PngLayout } from './png.ts';

// Nothing is kept between jobs: every image is read once.
sharp.cache(false);

/** One page to be: an image, or one page of a multi-page TIFF, measured from its header. */
export interface Frame {
  input: ToolInput;
  /** Page of a multi-page TIFF, else 0 (the first frame of an animation). */
  page: number;
  /** As stored, before EXIF orientation. */
  width: number;
  height: number;
  /** EXIF orientation, 1 to 8. */
  orientation: number;
  dpi: number | undefined;
  /**
   * How its pixels reach the PDF: a JPEG, or a PNG's compressed rows, carried as they are; other
   * images decoded by sharp (BMP by our decoder) and compressed again, losslessly.
   */
  via: 'jpeg' | 'png' | 'sharp' | 'bmp';
  jpeg?: JpegHeader;
  png?: PngLayout;
  icc?: Buffer;
  hasAlpha: boolean;
  grey: boolean;
}

/** A decoded image ready for the PDF, with the files that hold it until it is written. */
export interface Prepared {
  image: PdfImage;
  /** Whether the image's compressed data went in as it is (JPEG, PNG). */
  kept: boolean;
  files: string[];
}

function damaged(input: ToolInput, cause: unknown): ToolError {
  return new ToolError(
    'damaged_input',
    `"${input.name}" could not be read as ${article(fileKinds[input.kind].label)} image.`,
    {
      cause,
    },
  );
}

function article(label: string): string {
  return /^[AEIOU]/i.test(label) ? `an ${label}` : `a ${label}`;
}

/**
 * Refuses an image over the pixel limit: the general one, or the lower one for images that must be
 * decoded whole (`whole` names their kind for the message, e.g. "WebP", "interlaced PNG").
 */
function checkSize(input: ToolInput, width: number, height: number, whole?: string): void {
  const limit = whole ? limits.maxWholeMegapixels : limits.maxMegapixels;
  if (width * height > limit * 1_000_000) {
    const which = whole ? ` for ${whole} images` : '';
    throw new ToolError(
      'damaged_input',
      `This image is too large: "${input.name}" has ${width}×${height} pixels; the limit${which} is ${limit} megapixels.`,
    );
  }
}

async function metadataOf(input: ToolInput, page?: number): Promise<Metadata> {
  try {
    // The header only: no pixel is decoded, so no limit is needed here; sizes are checked next.
    return await sharp(input.path, { limitInputPixels: false, ...(page !== undefined ? { page } : {}) }).metadata();
  } catch (err) {
    throw damaged(input, err);
  }
}

const isGrey = (m: Metadata) => m.space === 'b-w' || m.space === 'grey16';

/**
 * The pages an input makes, read from headers alone: nothing is decoded, so a pixel bomb is refused
 * here, in milliseconds and a few kilobytes of memory.
 */
export async function probe(input: ToolInput): Promise<Frame[]> {
  switch (input.kind) {
    case 'jpeg': {
      const [header, meta] = await Promise.all([readJpegHeader(input.path), metadataOf(input)]);
      const width = meta.width ?? 0;
      const height = meta.height ?? 0;
      const keep = header !== undefined && embeddable(header);
      // Kept JPEGs are never decoded; a progressive one that must be decoded is held whole by libjpeg.
      checkSize(input, width, height, !keep && meta.isProgressive === true ? 'progressive JPEG' : undefined);
      return [
        {
          input,
          page: 0,
          width: keep ? header.width : width,
          height: keep ? header.height : height,
          orientation: meta.orientation ?? 1,
          dpi: meta.density,
          via: keep ? 'jpeg' : 'sharp',
          ...(header ? { jpeg: header } : {}),
          ...(meta.icc ? { icc: meta.icc } : {}),
          hasAlpha: false,
          grey: isGrey(meta),
        },
      ];
    }
    case 'bmp': {
      let header;
      try {
        // Headers, masks and a 256-colour palette fit well within the first 4 KB.
        header = readBmpHeader(await readStart(input.path, 4096));
      } catch (err) {
        if (err instanceof BmpError) throw damaged(input, err);
        throw err;
      }
      checkSize(input, header.width, header.height, 'BMP');
      return [
        {
          input,
          page: 0,
          width: header.width,
          height: header.height,
          orientation: 1,
          dpi: header.dpi,
          via: 'bmp',
          hasAlpha: header.hasAlpha,
          grey: false,
        },
      ];
    }
    case 'tiff': {
      const first = await metadataOf(input);
      const pages = first.pages ?? 1;
      if (pages > limits.maxPages) throw tooManyPages(pages);
      const frames: Frame[] = [];
      for (let page = 0; page < pages; page++) {
        const meta = page === 0 ? first : await metadataOf(input, page);
        frames.push(sharpFrame(input, meta, page));
      }
      return frames;
    }
    case 'png': {
      const meta = await metadataOf(input);
      // libvips decodes interlaced PNGs whole, others a strip at a time.
      const frame = sharpFrame(input, meta, 0, meta.isProgressive === true ? 'interlaced PNG' : undefined);
      const png = await readPngLayout(input.path).catch((err: unknown) => {
        throw damaged(input, err);
      });
      return [passablePng(png) ? { ...frame, via: 'png', png } : frame];
    }
    case 'gif':
    case 'webp': {
      // libvips decodes WebP and GIF frames whole. An animation gives its first frame.
      return [sharpFrame(input, await metadataOf(input), 0, fileKinds[input.kind].label)];
    }
    case 'avif': {
      // libheif decodes an AVIF whole, its rotation and mirroring (irot, imir) applied, so the size
      // read is the size shown and no orientation is left to apply. A sequence gives its first image.
      const meta = await metadataOf(input);
      // Its brands said AVIF; an image coded otherwise (HEVC) has no decoder here.
      if (meta.compression !== undefined && meta.compression !== 'av1')
        throw new ToolError(
          'unsupported_type',
          `"${input.name}" holds a ${meta.compression.toUpperCase()} image, which this tool cannot read: please save it as JPEG first.`,
        );
      return [sharpFrame(input, meta, 0, 'AVIF')];
    }
    default:
      throw new ToolError('unsupported_type', `"${input.name}" is not an image this tool can read.`);
  }
}

function sharpFrame(input: ToolInput, meta: Metadata, page: number, whole?: string): Frame {
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width < 1 || height < 1) throw damaged(input, new Error('no size in header'));
  checkSize(input, width, height, whole);
  const orientation =
    meta.orientation ?? (input.kind === 'png' ? orientationFromPngComments(meta.comments) : undefined) ?? 1;
  return {
    input,
    page,
    width,
    height,
    orientation,
    dpi: meta.density,
    via: 'sharp',
    hasAlpha: meta.hasAlpha === true,
    grey: isGrey(meta),
  };
}

/**
 * Whether a PDF reader can take a PNG's compressed rows as they are: not interlaced, no alpha and no
 * transparent colour (those need a mask), at most 8 bits; a palette only without an ICC profile.
 */
function passablePng(png: PngLayout): boolean {
  return (
    !png.interlaced &&
    !png.transparency &&
    [0, 2, 3].includes(png.colorType) &&
    png.bitDepth <= 8 &&
    (png.colorType !== 3 || (png.palette !== undefined && png.icc === undefined))
  );
}

export function tooManyPages(pages: number): ToolError {
  return new ToolError(
    'damaged_input',
    `These images would make ${pages} pages; the limit is ${limits.maxPages} pages in one PDF. Please send fewer.`,
  );
}

/**
 * The image as the PDF will hold it. A JPEG is referenced as it is. Anything else is decoded by
 * sharp, a strip at a time where the format allows, into a PNG whose compressed rows the PDF takes
 * with the PNG predictors; alpha goes into a second, grey PNG that becomes the soft mask.
 */
export async function prepare(frame: Frame, workdir: string, id: number): Promise<Prepared> {
  if (frame.via === 'jpeg')
    return { image: jpegImage(frame, (await stat(frame.input.path)).size), kept: true, files: [] };
  const files: string[] = [];
  try {
    if (frame.via === 'png') {
      // The rows go in as they are, but are decoded once, a strip at a time, so a damaged file is
      // refused here rather than shown broken by the reader.
      await (await decoderFor(frame))().resize(8, 8, { fit: 'fill', kernel: 'nearest' }).raw().toBuffer();
      return { image: pngImage(frame.input.path, frame.png!), kept: true, files };
    }
    const source = await decoderFor(frame);
    const colourPath = join(workdir, `img-${id}.png`);
    files.push(colourPath);
    await source()
      .removeAlpha()
      .toColourspace(frame.grey ? 'b-w' : 'srgb')
      .png({ compressionLevel: 6, adaptiveFiltering: false })
      .toFile(colourPath);
    const colour = await readPngLayout(colourPath);
    let smask: PdfImage | undefined;
    if (frame.hasAlpha) {
      const alphaPath = join(workdir, `img-${id}-alpha.png`);
      files.push(alphaPath);
      // Through sRGB, alpha is the fourth channel whatever the image was (grey, CMYK, 16 bits).
      await source()
        .toColourspace('srgb')
        .extractChannel(3)
        .toColourspace('b-w')
        .png({ compressionLevel: 6, adaptiveFiltering: false })
        .toFile(alphaPath);
      // Many images carry an alpha channel that is opaque throughout: no mask for those.
      const alpha = await readPngLayout(alphaPath);
      if (!(await allOpaque(alphaPath, alpha))) smask = pngImage(alphaPath, alpha);
    }
    return { image: { ...pngImage(colourPath, colour), ...(smask ? { smask } : {}) }, kept: false, files };
  } catch (err) {
    await Promise.all(files.map((f) => rm(f, { force: true })));
    if (err instanceof ToolError) throw err;
    // Sizes were checked from the header; a decoder that finds more pixels than that is a damaged file.
    throw damaged(frame.input, err);
  }
}

/** A function giving a fresh sharp pipeline over the frame's pixels, for each output made from them. */
async function decoderFor(frame: Frame): Promise<() => Sharp> {
  const limit = Math.max(limits.maxMegapixels, limits.maxWholeMegapixels) * 1_000_000;
  if (frame.via === 'bmp') {
    const file = await readFile(frame.input.path);
    const header = readBmpHeader(file);
    const { data, channels } = decodeBmp(file, header);
    return () =>
      sharp(data, { raw: { width: header.width, height: header.height, channels }, limitInputPixels: limit });
  }
  // 'error' refuses damaged data; a warning (a stray byte after the end, say) does not stop a good image.
  return () => sharp(frame.input.path, { page: frame.page, limitInputPixels: limit, failOn: 'error' });
}

function jpegImage(frame: Frame, size: number): PdfImage {
  const h = frame.jpeg!;
  const device = h.components === 1 ? 'DeviceGray' : h.components === 3 ? 'DeviceRGB' : 'DeviceCMYK';
  const icc = frame.icc && iccComponents(frame.icc) === h.components ? frame.icc : undefined;
  const colorSpace: ColorSpace = icc ? { icc, components: h.components as 1 | 3 | 4 } : device;
  const transform = colorTransform(h);
  return {
    width: h.width,
    height: h.height,
    bitsPerComponent: 8,
    colorSpace,
    filter: 'DCTDecode',
    ...(transform !== undefined ? { decodeParms: `/ColorTransform ${transform}` } : {}),
    ...(invertedCmyk(h) ? { decode: [1, 0, 1, 0, 1, 0, 1, 0] } : {}),
    data: { path: frame.input.path, ranges: [[0, size]] },
  };
}

/** The number of colour components an ICC profile describes, from its header. */
function iccComponents(icc: Buffer): number | undefined {
  if (icc.length < 132) return undefined;
  switch (icc.toString('latin1', 16, 20)) {
    case 'GRAY':
      return 1;
    case 'RGB ':
      return 3;
    case 'CMYK':
      return 4;
    default:
      return undefined;
  }
}

function pngImage(path: string, png: PngLayout): PdfImage {
  if (png.interlaced || ![0, 2, 3].includes(png.colorType)) {
    throw new Error(`unexpected PNG from sharp: type ${png.colorType}, interlaced ${png.interlaced}`);
  }
  const colors = png.colorType === 2 ? 3 : 1;
  let colorSpace: ColorSpace = png.colorType === 2 ? 'DeviceRGB' : 'DeviceGray';
  if (png.icc && png.colorType !== 3 && iccComponents(png.icc) === colors)
    colorSpace = { icc: png.icc, components: colors };
  if (png.colorType === 3) {
    if (!png.palette) throw new Error('palette PNG without PLTE');
    colorSpace = { palette: png.palette, base: 'DeviceRGB' };
  }
  return {
    width: png.width,
    height: png.height,
    bitsPerComponent: png.bitDepth,
    colorSpace,
    filter: 'FlateDecode',
    decodeParms: `/Predictor 15 /Colors ${colors} /BitsPerComponent ${png.bitDepth} /Columns ${png.width}`,
    data: { path, ranges: png.idat },
  };
}
