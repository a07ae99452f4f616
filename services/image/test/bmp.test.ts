import { describe, expect, it } from 'vitest';
import { BmpError, decodeBmp, readBmpHeader } from '../src/images/bmp.ts';

/** A BMP file: file header, a DIB header of `headerSize` bytes (extra fields after the first 40 given), palette, data. */
function bmp(opts: {
  width: number;
  height: number;
  bitCount: number;
  compression?: number;
  headerSize?: number;
  extra?: Buffer;
  palette?: number[][];
  data: Buffer;
}): Buffer {
  const headerSize = opts.headerSize ?? 40;
  const palette = Buffer.concat((opts.palette ?? []).map(([r, g, b]) => Buffer.from([b!, g!, r!, 0])));
  const dib = Buffer.alloc(headerSize);
  dib.writeUInt32LE(headerSize, 0);
  dib.writeInt32LE(opts.width, 4);
  dib.writeInt32LE(opts.height, 8);
  dib.writeUInt16LE(1, 12);
  dib.writeUInt16LE(opts.bitCount, 14);
  dib.writeUInt32LE(opts.compression ?? 0, 16);
  dib.writeInt32LE(3780, 24); // 96 dpi
  dib.writeInt32LE(3780, 28);
  dib.writeUInt32LE(opts.palette?.length ?? 0, 32);
  opts.extra?.copy(dib, 40);
  const offset = 14 + headerSize + palette.length;
  const file = Buffer.alloc(14);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(offset + opts.data.length, 2);
  file.writeUInt32LE(offset, 10);
  return Buffer.concat([file, dib, palette, opts.data]);
}

const px = (buf: Buffer, channels: number, i: number) => [...buf.subarray(i * channels, i * channels + channels)];

describe('BMP decoder', () => {
  it('reads 24-bit bottom-up rows with their padding, and the resolution', () => {
    // 3×2: bottom row first, each row padded from 9 to 12 bytes. Pixels are stored B, G, R.
    const data = Buffer.from([
      ...[0, 0, 255, 0, 255, 0, 255, 0, 0, 0, 0, 0], // bottom: red, green, blue
      ...[255, 255, 255, 0, 0, 0, 128, 128, 128, 0, 0, 0], // top: white, black, grey
    ]);
    const file = bmp({ width: 3, height: 2, bitCount: 24, data });
    const h = readBmpHeader(file);
    expect(h).toMatchObject({ width: 3, height: 2, topDown: false, hasAlpha: false });
    expect(h.dpi).toBeCloseTo(96, 0);
    const { data: out, channels } = decodeBmp(file, h);
    expect(channels).toBe(3);
    expect([0, 1, 2, 3, 4, 5].map((i) => px(out, 3, i))).toEqual([
      [255, 255, 255],
      [0, 0, 0],
      [128, 128, 128],
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
    ]);
  });

  it('reads 32-bit top-down bit fields with an alpha mask', () => {
    const masks = Buffer.alloc(16);
    masks.writeUInt32LE(0x00ff0000, 0);
    masks.writeUInt32LE(0x0000ff00, 4);
    masks.writeUInt32LE(0x000000ff, 8);
    masks.writeUInt32LE(0xff000000, 12);
    const data = Buffer.alloc(8);
    data.writeUInt32LE(0x80ff0000, 0); // red, half transparent
    data.writeUInt32LE(0x000000ff, 4); // blue, fully transparent
    const file = bmp({ width: 2, height: -1, bitCount: 32, compression: 3, headerSize: 108, extra: masks, data });
    const h = readBmpHeader(file);
    expect(h).toMatchObject({ width: 2, height: 1, topDown: true, hasAlpha: true });
    const { data: out, channels } = decodeBmp(file, h);
    expect(channels).toBe(4);
    expect(px(out, 4, 0)).toEqual([255, 0, 0, 128]);
    expect(px(out, 4, 1)).toEqual([0, 0, 255, 0]);
  });

  it('reads 16-bit 5-6-5 bit fields placed after a 40-byte header', () => {
    const masks = Buffer.alloc(12);
    masks.writeUInt32LE(0xf800, 0);
    masks.writeUInt32LE(0x07e0, 4);
    masks.writeUInt32LE(0x001f, 8);
    const pixels = Buffer.alloc(4);
    pixels.writeUInt16LE(0xf800, 0);
    pixels.writeUInt16LE(0x07e0, 2);
    // Masks sit between the header and the data, so they are passed as a leading part of the data
    // with the offset moved past them.
    const file = bmp({ width: 2, height: 1, bitCount: 16, compression: 3, data: Buffer.concat([masks, pixels]) });
    file.writeUInt32LE(file.readUInt32LE(10) + 12, 10);
    const { data: out } = decodeBmp(file, readBmpHeader(file));
    expect(px(out, 3, 0)).toEqual([255, 0, 0]);
    expect(px(out, 3, 1)).toEqual([0, 255, 0]);
  });

  it('reads 8-bit and 1-bit palettes', () => {
    const palette = [
      [10, 20, 30],
      [200, 100, 50],
    ];
    const eight = bmp({ width: 2, height: 1, bitCount: 8, palette, data: Buffer.from([1, 0, 0, 0]) });
    const e = decodeBmp(eight, readBmpHeader(eight));
    expect([px(e.data, 3, 0), px(e.data, 3, 1)]).toEqual([palette[1], palette[0]]);
    const one = bmp({ width: 3, height: 1, bitCount: 1, palette, data: Buffer.from([0b10100000, 0, 0, 0]) });
    const o = decodeBmp(one, readBmpHeader(one));
    expect([0, 1, 2].map((i) => px(o.data, 3, i))).toEqual([palette[1], palette[0], palette[1]]);
  });

  it('reads RLE8: runs, absolute runs, end of line, delta and end of bitmap', () => {
    const palette = [
      [0, 0, 0],
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
    ];
    // 4×3, bottom row first: row 0 = a run of 4 × index 1, end of line; row 1 = absolute 3, 2, 1
    // (padded to an even length), end of line; row 2 = a delta of (2, 0), a run of 2 × index 3;
    // end of bitmap.
    const data = Buffer.from([4, 1, 0, 0, 0, 3, 3, 2, 1, 0, 0, 0, 0, 2, 2, 0, 2, 3, 0, 1]);
    const file = bmp({ width: 4, height: 3, bitCount: 8, compression: 1, palette, data });
    const { data: out } = decodeBmp(file, readBmpHeader(file));
    const rows = [0, 1, 2].map((y) => [0, 1, 2, 3].map((x) => px(out, 3, y * 4 + x)));
    const [k, r, g, b] = palette;
    expect(rows[2]).toEqual([r, r, r, r]); // the file's first row is the image's bottom
    expect(rows[1]).toEqual([b, g, r, k]); // absolute run, then the rest of the row left as index 0
    expect(rows[0]).toEqual([k, k, b, b]); // reached by the delta
  });

  it('reads RLE4, two pixels a byte', () => {
    const palette = [
      [0, 0, 0],
      [255, 255, 255],
      [255, 0, 0],
    ];
    // 7×1: a run of 3 alternating 1, 2 (0x12); absolute 3 pixels 2, 1, 2 (0x21 0x20); a run of 1
    // (the high half of 0x1f); end of bitmap.
    const data = Buffer.from([3, 0x12, 0, 3, 0x21, 0x20, 1, 0x1f, 0, 1]);
    const file = bmp({ width: 7, height: 1, bitCount: 4, compression: 2, palette, data });
    const { data: out } = decodeBmp(file, readBmpHeader(file));
    const [, w, r] = palette;
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => px(out, 3, i))).toEqual([w, r, w, r, w, r, w]);
  });

  it('reads the OS/2 core header with 3-byte palette entries', () => {
    const head = Buffer.alloc(12);
    head.writeUInt32LE(12, 0);
    head.writeUInt16LE(1, 4);
    head.writeUInt16LE(1, 6);
    head.writeUInt16LE(1, 8);
    head.writeUInt16LE(8, 10);
    const palette = Buffer.from([0, 0, 0, 0, 0, 255]); // black; red (B, G, R)
    const data = Buffer.from([1, 0, 0, 0]);
    const file = Buffer.concat([Buffer.from('BM'), Buffer.alloc(8), Buffer.alloc(4), head, palette, data]);
    file.writeUInt32LE(14 + 12 + 6, 10);
    const { data: out } = decodeBmp(file, readBmpHeader(file));
    expect(px(out, 3, 0)).toEqual([255, 0, 0]);
  });

  it('refuses what it cannot read, from the header alone', () => {
    expect(() => readBmpHeader(Buffer.from('not a bitmap at all, not at all'))).toThrow(BmpError);
    const jpegInside = bmp({ width: 1, height: 1, bitCount: 24, compression: 4, data: Buffer.alloc(4) });
    expect(() => readBmpHeader(jpegInside)).toThrow(/compression 4/);
    // A header is enough to know the size of a bomb: nothing is decoded to find it.
    const huge = bmp({
      width: 100_000,
      height: 100_000,
      bitCount: 8,
      compression: 1,
      palette: [[0, 0, 0]],
      data: Buffer.from([0, 1]),
    });
    expect(readBmpHeader(huge)).toMatchObject({ width: 100_000, height: 100_000 });
  });
});
