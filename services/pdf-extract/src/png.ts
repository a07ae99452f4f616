import { crc32, deflateSync } from 'node:zlib';

/** pdf.js's decoded image kinds. */
export const ImageKind = { GRAYSCALE_1BPP: 1, RGB_24BPP: 2, RGBA_32BPP: 3 } as const;

export interface RawImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
  return Buffer.concat([head, body, crc]);
}

/** Most pixels kept per image; larger images are shrunk by a whole factor (box filter). */
const maxPixels = 4_000_000;

/** A pdf.js image as a PNG file, or undefined when its shape is not one we know. */
export function encodePng(img: RawImage): Buffer | undefined {
  const { kind } = img;
  let { width, height, data } = img;
  if (!width || !height || !data) return undefined;
  let channels: number;
  let colorType: number;
  let depth = 8;
  let rowBytes: number;
  if (kind === ImageKind.GRAYSCALE_1BPP) {
    channels = 1;
    colorType = 0;
    depth = 1;
    rowBytes = (width + 7) >> 3;
  } else if (kind === ImageKind.RGB_24BPP || kind === ImageKind.RGBA_32BPP) {
    channels = kind === ImageKind.RGB_24BPP ? 3 : 4;
    colorType = channels === 3 ? 2 : 6;
    rowBytes = width * channels;
    if (width * height > maxPixels) {
      const f = Math.ceil(Math.sqrt((width * height) / maxPixels));
      ({ data, width, height } = shrink(data, width, height, channels, f));
      rowBytes = width * channels;
    }
  } else return undefined;
  if (data.length < rowBytes * height) return undefined;
  const raw = Buffer.alloc((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (rowBytes + 1)] = 0;
    raw.set(data.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = colorType;
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

function shrink(data: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: number, f: number) {
  const w = Math.max(1, Math.floor(width / f));
  const h = Math.max(1, Math.floor(height / f));
  const out = new Uint8Array(w * h * channels);
  const n = f * f;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let dy = 0; dy < f; dy++) {
          const row = (y * f + dy) * width;
          for (let dx = 0; dx < f; dx++) sum += data[(row + x * f + dx) * channels + c]!;
        }
        out[(y * w + x) * channels + c] = Math.round(sum / n);
      }
    }
  }
  return { data: out, width: w, height: h };
}
