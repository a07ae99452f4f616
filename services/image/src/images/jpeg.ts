import { open } from 'node:fs/promises';

/** What the PDF needs to know of a JPEG to carry it as it is, read from its markers. */
export interface JpegHeader {
  width: number;
  height: number;
  /** Bits per sample: 8 for nearly every JPEG. */
  precision: number;
  components: number;
  /** The start-of-frame marker: 0xc0 baseline, 0xc1 extended, 0xc2 progressive, others rarer. */
  sof: number;
  /** The Adobe APP14 colour transform, when that marker is present (0 none, 1 YCbCr, 2 YCCK). */
  adobeTransform?: number;
  /** Component ids, which tell an RGB JPEG without an Adobe marker ('R', 'G', 'B'). */
  componentIds: number[];
  /** Whether an end-of-image marker follows the first scan: a file cut short has none. */
  complete: boolean;
}

const sofMarkers = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/**
 * Reads a JPEG's markers up to its first scan: frame size, precision, components, Adobe transform.
 * Undefined when the markers do not make sense; the decoder then judges the file.
 */
export async function readJpegHeader(path: string): Promise<JpegHeader | undefined> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const read = async (pos: number, len: number): Promise<Buffer> => {
      const buf = Buffer.alloc(len);
      const { bytesRead } = await fh.read(buf, 0, len, pos);
      return buf.subarray(0, bytesRead);
    };
    const soi = await read(0, 2);
    if (soi.length < 2 || soi[0] !== 0xff || soi[1] !== 0xd8) return undefined;
    let pos = 2;
    let adobeTransform: number | undefined;
    let frame: Omit<JpegHeader, 'adobeTransform' | 'complete'> | undefined;
    let scan = -1;
    // A few hundred segments at most in a real file; the bound stops a crafted loop.
    for (let segments = 0; segments < 10_000 && pos + 4 <= size; segments++) {
      const head = await read(pos, 4);
      if (head[0] !== 0xff) return undefined;
      const marker = head[1]!;
      if (marker === 0xff) {
        pos += 1; // fill byte
        continue;
      }
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        pos += 2;
        continue;
      }
      if (marker === 0xd9) break;
      const length = head.readUInt16BE(2);
      if (length < 2) return undefined;
      if (marker === 0xda) {
        scan = pos; // the first scan: everything needed comes before it
        break;
      }
      if (sofMarkers.has(marker)) {
        const d = await read(pos + 4, length - 2);
        if (d.length < 6) return undefined;
        const components = d[5]!;
        if (d.length < 6 + components * 3) return undefined;
        frame = {
          sof: marker,
          precision: d[0]!,
          height: d.readUInt16BE(1),
          width: d.readUInt16BE(3),
          components,
          componentIds: Array.from({ length: components }, (_, i) => d[6 + i * 3]!),
        };
      } else if (marker === 0xee && length >= 14) {
        const d = await read(pos + 4, 12);
        if (d.toString('latin1', 0, 5) === 'Adobe') adobeTransform = d[11];
      }
      pos += 2 + length;
    }
    if (!frame || scan < 0) return undefined;
    const complete = await endsAfter(read, scan, size);
    return adobeTransform === undefined ? { ...frame, complete } : { ...frame, adobeTransform, complete };
  } finally {
    await fh.close();
  }
}

/**
 * Whether an EOI marker (FF D9) lies between `from` and the end, looking from the end backwards a
 * megabyte at a time: it is nearly always in the last bytes, after which some cameras add a trailer.
 */
async function endsAfter(
  read: (pos: number, len: number) => Promise<Buffer>,
  from: number,
  size: number,
): Promise<boolean> {
  const step = 1 << 20;
  for (let end = size; end > from; end -= step) {
    const start = Math.max(from, end - step - 1); // one byte of overlap, for a marker split across reads
    if ((await read(start, end - start)).includes(Buffer.from([0xff, 0xd9]))) return true;
  }
  return false;
}

/**
 * Whether a PDF reader's DCTDecode filter can show this JPEG as it is: Huffman-coded baseline,
 * extended or progressive, 8 bits, one, three or four components, with its height in the frame header,
 * and whole. Any other JPEG is decoded by sharp, which refuses it if it is cut short or damaged.
 */
export function embeddable(h: JpegHeader): boolean {
  return (
    h.complete &&
    (h.sof === 0xc0 || h.sof === 0xc1 || h.sof === 0xc2) &&
    h.precision === 8 &&
    [1, 3, 4].includes(h.components) &&
    h.width > 0 &&
    h.height > 0
  );
}

/**
 * The PDF colour-transform a reader must apply, when its default would be wrong: a three-component
 * JPEG whose components are named R, G, B and that has no Adobe marker holds RGB, not YCbCr.
 */
export function colorTransform(h: JpegHeader): 0 | undefined {
  if (h.components !== 3 || h.adobeTransform !== undefined) return undefined;
  const [a, b, c] = h.componentIds;
  return a === 0x52 && b === 0x47 && c === 0x42 ? 0 : undefined;
}

/**
 * Adobe applications write CMYK JPEGs with every sample inverted and mark them with APP14; libjpeg,
 * browsers and PDF readers with a /Decode [1 0 ...] array undo it. Without the marker, CMYK is as is.
 */
export function invertedCmyk(h: JpegHeader): boolean {
  return h.components === 4 && h.adobeTransform !== undefined;
}
