import { open } from 'node:fs/promises';
import { createInflate, inflateSync } from 'node:zlib';

/**
 * Where a PNG keeps its compressed pixels. A non-interlaced PNG's IDAT data is a zlib stream that a
 * PDF reader decodes with FlateDecode and the PNG predictors, so it goes into the PDF without being
 * decoded again (as img2pdf does).
 */
export interface PngLayout {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA. */
  colorType: number;
  interlaced: boolean;
  palette?: Buffer;
  /** Whether a tRNS chunk makes some colours transparent. */
  transparency: boolean;
  /** The embedded ICC profile (iCCP), inflated. */
  icc?: Buffer;
  /** [offset, length] of each IDAT chunk's data, in order. */
  idat: [number, number][];
  idatBytes: number;
}

export async function readPngLayout(path: string): Promise<PngLayout> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(8);
    const read = async (pos: number, len: number) => {
      const buf = Buffer.alloc(len);
      const { bytesRead } = await fh.read(buf, 0, len, pos);
      if (bytesRead !== len) throw new Error('truncated PNG');
      return buf;
    };
    const signature = await read(0, 8);
    if (signature.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG');
    let pos = 8;
    let ihdr: Buffer | undefined;
    let palette: Buffer | undefined;
    let transparency = false;
    let icc: Buffer | undefined;
    const idat: [number, number][] = [];
    let idatBytes = 0;
    while (pos + 8 <= size) {
      await fh.read(head, 0, 8, pos);
      const length = head.readUInt32BE(0);
      const type = head.toString('latin1', 4, 8);
      const data = pos + 8;
      if (type === 'IHDR') ihdr = await read(data, 13);
      else if (type === 'PLTE') palette = await read(data, length);
      else if (type === 'tRNS') transparency = true;
      else if (type === 'iCCP' && length < 4 * 1024 * 1024) icc = iccFrom(await read(data, length));
      else if (type === 'IDAT') {
        idat.push([data, length]);
        idatBytes += length;
      } else if (type === 'IEND') break;
      pos = data + length + 4;
    }
    if (!ihdr || idat.length === 0) throw new Error('PNG without header or pixels');
    return {
      width: ihdr.readUInt32BE(0),
      height: ihdr.readUInt32BE(4),
      bitDepth: ihdr[8]!,
      colorType: ihdr[9]!,
      interlaced: ihdr[12] === 1,
      idat,
      idatBytes,
      transparency,
      ...(palette ? { palette } : {}),
      ...(icc ? { icc } : {}),
    };
  } finally {
    await fh.close();
  }
}

/** An iCCP chunk's profile: a name, a zero byte, the method (0, deflate), then the zlib stream. */
function iccFrom(chunk: Buffer): Buffer | undefined {
  const zero = chunk.indexOf(0);
  if (zero < 1 || zero > 79 || chunk[zero + 1] !== 0) return undefined;
  try {
    return inflateSync(chunk.subarray(zero + 2), { maxOutputLength: 16 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}

/**
 * Whether every sample of an 8-bit, one-channel PNG written without row filters (as we write alpha
 * masks) is 255: then the image needs no mask. Reads the data as a stream, so memory stays small.
 * Anything unexpected answers false, which only keeps a mask that was not needed.
 */
export async function allOpaque(path: string, png: PngLayout): Promise<boolean> {
  if (png.bitDepth !== 8 || png.colorType !== 0 || png.interlaced) return false;
  const rowBytes = png.width + 1;
  const fh = await open(path, 'r');
  const inflate = createInflate();
  let position = 0; // within the inflated data
  let opaque = true;
  const scanned = new Promise<void>((resolve, reject) => {
    inflate.on('data', (chunk: Buffer) => {
      for (let i = 0; i < chunk.length && opaque; i++, position++) {
        const inRow = position % rowBytes;
        if (inRow === 0 ? chunk[i] !== 0 : chunk[i] !== 255) opaque = false;
      }
      if (!opaque) inflate.destroy();
    });
    inflate.on('end', resolve);
    inflate.on('close', resolve);
    inflate.on('error', reject);
  });
  try {
    const buf = Buffer.alloc(1 << 20);
    reading: for (const [start, length] of png.idat) {
      for (let done = 0; done < length;) {
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, length - done), start + done);
        if (bytesRead === 0) return false;
        done += bytesRead;
        // The scan may have stopped (and closed the stream) while the file was being read.
        if (!opaque || inflate.destroyed) break reading;
        if (!inflate.write(Buffer.from(buf.subarray(0, bytesRead)))) {
          await new Promise((r) => {
            inflate.once('drain', r);
            inflate.once('close', r);
          });
        }
      }
    }
    if (opaque && !inflate.destroyed) inflate.end();
    await scanned;
    return opaque && position === rowBytes * png.height;
  } catch {
    return false;
  } finally {
    inflate.destroy();
    await fh.close();
  }
}
