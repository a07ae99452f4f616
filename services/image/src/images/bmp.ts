/**
 * A small BMP decoder, since sharp (libvips) cannot read BMP: Windows and OS/2 headers, 1, 2, 4 and
 * 8-bit palettes, 16, 24 and 32-bit colour with or without bit fields, RLE8 and RLE4, bottom-up and
 * top-down. The header is read first, so a caller can refuse a huge image before any pixel is made.
 */

export class BmpError extends Error {}

const BI_RGB = 0;
const BI_RLE8 = 1;
const BI_RLE4 = 2;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

export interface BmpHeader {
  width: number;
  height: number;
  topDown: boolean;
  bitCount: number;
  compression: number;
  /** Byte offset of the pixel data. */
  dataOffset: number;
  headerSize: number;
  masks?: { r: number; g: number; b: number; a: number };
  palette?: Uint8Array[];
  /** Pixels per inch, when the file says. */
  dpi?: number;
  hasAlpha: boolean;
}

export function readBmpHeader(buf: Buffer): BmpHeader {
  if (buf.length < 26 || buf.toString('latin1', 0, 2) !== 'BM') throw new BmpError('not a BMP file');
  const dataOffset = buf.readUInt32LE(10);
  const headerSize = buf.readUInt32LE(14);
  let width: number;
  let rawHeight: number;
  let bitCount: number;
  let compression = BI_RGB;
  let colorsUsed = 0;
  let ppm = 0;
  if (headerSize === 12) {
    width = buf.readUInt16LE(18);
    rawHeight = buf.readInt16LE(20);
    bitCount = buf.readUInt16LE(24);
  } else if (headerSize >= 40 && buf.length >= 14 + 40) {
    width = buf.readInt32LE(18);
    rawHeight = buf.readInt32LE(22);
    bitCount = buf.readUInt16LE(28);
    compression = buf.readUInt32LE(30);
    ppm = buf.readInt32LE(38);
    colorsUsed = buf.readUInt32LE(46);
  } else {
    throw new BmpError(`unknown BMP header of ${headerSize} bytes`);
  }
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0) throw new BmpError('BMP without pixels');
  if (![1, 2, 4, 8, 16, 24, 32].includes(bitCount)) throw new BmpError(`BMP of ${bitCount} bits a pixel`);
  if (![BI_RGB, BI_RLE8, BI_RLE4, BI_BITFIELDS, BI_ALPHABITFIELDS].includes(compression)) {
    throw new BmpError(`BMP compression ${compression} is not supported`);
  }
  if ((compression === BI_RLE8 && bitCount !== 8) || (compression === BI_RLE4 && bitCount !== 4)) {
    throw new BmpError('BMP run-length compression does not match its bit count');
  }
  if (topDown && (compression === BI_RLE8 || compression === BI_RLE4)) throw new BmpError('top-down RLE BMP');

  let masks: BmpHeader['masks'];
  let afterHeader = 14 + headerSize;
  if (bitCount === 16 || bitCount === 32) {
    if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
      // Masks sit in the header from version 2 on, else right after a 40-byte header.
      const at = 14 + 40;
      const count = compression === BI_ALPHABITFIELDS || headerSize >= 56 ? 4 : 3;
      if (buf.length < at + count * 4) throw new BmpError('truncated BMP masks');
      masks = {
        r: buf.readUInt32LE(at),
        g: buf.readUInt32LE(at + 4),
        b: buf.readUInt32LE(at + 8),
        a: count === 4 ? buf.readUInt32LE(at + 12) : 0,
      };
      if (headerSize === 40) afterHeader += count * 4;
    } else if (headerSize >= 56) {
      // Version 3+ headers carry an alpha mask even for BI_RGB; honour it only when set.
      const a = buf.readUInt32LE(14 + 52);
      masks =
        bitCount === 16
          ? { r: 0x7c00, g: 0x03e0, b: 0x001f, a: 0 }
          : { r: 0xff0000, g: 0x00ff00, b: 0x0000ff, a: a === 0xff000000 ? a : 0 };
    } else {
      masks =
        bitCount === 16 ? { r: 0x7c00, g: 0x03e0, b: 0x001f, a: 0 } : { r: 0xff0000, g: 0x00ff00, b: 0x0000ff, a: 0 };
    }
  }

  let palette: Uint8Array[] | undefined;
  if (bitCount <= 8) {
    const entry = headerSize === 12 ? 3 : 4;
    const count = colorsUsed > 0 && colorsUsed <= 1 << bitCount ? colorsUsed : 1 << bitCount;
    palette = [];
    for (let i = 0; i < count; i++) {
      const at = afterHeader + i * entry;
      if (at + 3 > buf.length || at + 3 > dataOffset) break;
      palette.push(Uint8Array.of(buf[at + 2]!, buf[at + 1]!, buf[at]!));
    }
    if (palette.length === 0) throw new BmpError('BMP without a palette');
  }
  const dpi = ppm > 0 ? ppm * 0.0254 : undefined;
  return {
    width,
    height,
    topDown,
    bitCount,
    compression,
    dataOffset,
    headerSize,
    hasAlpha: Boolean(masks?.a),
    ...(masks ? { masks } : {}),
    ...(palette ? { palette } : {}),
    ...(dpi ? { dpi } : {}),
  };
}

/** Shift and scale for a bit-field mask, to bring its value to 0–255. */
function channel(mask: number): (v: number) => number {
  if (!mask) return () => 255;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  return (v) => Math.round((((v & mask) >>> 0) >>> shift) * (255 / max));
}

/**
 * The pixels, top row first, 3 (RGB) or 4 (RGBA) bytes a pixel. Rows the file does not hold (a
 * truncated file, or runs skipped by RLE) take the first palette colour, as other readers do.
 */
export function decodeBmp(buf: Buffer, h: BmpHeader): { data: Buffer; channels: 3 | 4 } {
  const channels = h.hasAlpha ? 4 : 3;
  const { width, height } = h;
  const out = Buffer.alloc(width * height * channels);
  const rowOf = (y: number) => (h.topDown ? y : height - 1 - y); // file row -> image row
  const fill = h.palette?.[0];
  if (fill && (fill[0] || fill[1] || fill[2])) {
    for (let i = 0; i < width * height; i++) out.set(fill, i * channels);
  }
  const data = buf.subarray(Math.min(h.dataOffset, buf.length));

  if (h.compression === BI_RLE8 || h.compression === BI_RLE4) {
    decodeRle(data, h, (x, fileRow, index) => {
      if (x >= width || fileRow >= height) return;
      const color = h.palette![index] ?? h.palette![0]!;
      out.set(color, (rowOf(fileRow) * width + x) * channels);
    });
    return { data: out, channels };
  }

  const stride = Math.floor((width * h.bitCount + 31) / 32) * 4;
  if (h.bitCount <= 8) {
    const palette = h.palette!;
    const perByte = 8 / h.bitCount;
    const mask = (1 << h.bitCount) - 1;
    for (let fy = 0; fy < height; fy++) {
      const start = fy * stride;
      if (start >= data.length) break;
      const o = rowOf(fy) * width * channels;
      for (let x = 0; x < width; x++) {
        const byte = data[start + Math.floor(x / perByte)];
        if (byte === undefined) break;
        const shift = 8 - h.bitCount * ((x % perByte) + 1);
        const color = palette[(byte >> shift) & mask] ?? palette[0]!;
        out.set(color, o + x * channels);
      }
    }
    return { data: out, channels };
  }

  if (h.bitCount === 24) {
    for (let fy = 0; fy < height; fy++) {
      const start = fy * stride;
      if (start + width * 3 > data.length) break;
      const o = rowOf(fy) * width * channels;
      for (let x = 0; x < width; x++) {
        const s = start + x * 3;
        const d = o + x * channels;
        out[d] = data[s + 2]!;
        out[d + 1] = data[s + 1]!;
        out[d + 2] = data[s]!;
      }
    }
    return { data: out, channels };
  }

  const { r, g, b, a } = h.masks!;
  const [cr, cg, cb, ca] = [channel(r), channel(g), channel(b), channel(a)];
  const bytes = h.bitCount / 8;
  for (let fy = 0; fy < height; fy++) {
    const start = fy * stride;
    if (start + width * bytes > data.length) break;
    const o = rowOf(fy) * width * channels;
    for (let x = 0; x < width; x++) {
      const v = bytes === 2 ? data.readUInt16LE(start + x * 2) : data.readUInt32LE(start + x * 4);
      const d = o + x * channels;
      out[d] = cr(v);
      out[d + 1] = cg(v);
      out[d + 2] = cb(v);
      if (channels === 4) out[d + 3] = ca(v);
    }
  }
  return { data: out, channels };
}

/** Walks RLE8 or RLE4 data, calling `put` for each pixel with its file row (bottom row first). */
function decodeRle(data: Buffer, h: BmpHeader, put: (x: number, fileRow: number, index: number) => void): void {
  const four = h.compression === BI_RLE4;
  let x = 0;
  let y = 0;
  let i = 0;
  while (i + 1 < data.length && y < h.height) {
    const count = data[i]!;
    const value = data[i + 1]!;
    i += 2;
    if (count > 0) {
      for (let k = 0; k < count; k++) put(x++, y, four ? (k % 2 === 0 ? value >> 4 : value & 0x0f) : value);
      continue;
    }
    if (value === 0) {
      x = 0;
      y++;
    } else if (value === 1) {
      break;
    } else if (value === 2) {
      if (i + 1 >= data.length) break;
      x += data[i]!;
      y += data[i + 1]!;
      i += 2;
    } else {
      // Absolute mode: `value` pixels as they are, padded to a 16-bit boundary.
      const n = value;
      const bytes = four ? Math.ceil(n / 2) : n;
      for (let k = 0; k < n; k++) {
        const byte = data[i + (four ? k >> 1 : k)];
        if (byte === undefined) break;
        put(x++, y, four ? (k % 2 === 0 ? byte >> 4 : byte & 0x0f) : byte);
      }
      i += bytes + (bytes % 2);
    }
  }
}
