import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** The end-of-central-directory record is in the last 22 bytes, or before a comment of up to 64 KB. */
const tailBytes = 22 + 0xffff;
/** Most of a central directory kept in memory; a larger one is read entry by entry from the file. */
const maxCachedDirectory = 32 * 1024 * 1024;

/**
 * A zip's bytes for yauzl, its central directory read in one go: yauzl reads each entry's record
 * with its own small read, and a thousand of them, each a trip to the thread pool, cost more than
 * the sampled entries they lead to.
 */
class DirectoryCachedReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly file: FileHandle,
    private readonly path: string,
    private readonly cached: { start: number; bytes: Buffer },
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return end > start ? createReadStream(this.path, { start, end: end - 1 }) : Readable.from([]);
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null) => void,
  ): void {
    const { start, bytes } = this.cached;
    if (position >= start && position + length <= start + bytes.length) {
      bytes.copy(buffer, offset, position - start, position - start + length);
      queueMicrotask(() => callback(null));
      return;
    }
    this.file.read(buffer, offset, length, position).then(
      ({ bytesRead }) => callback(bytesRead < length ? new Error('unexpected end of zip') : null),
      (err: Error) => callback(err),
    );
  }

  override close(callback: (err: Error | null) => void): void {
    this.file.close().then(
      () => callback(null),
      (err: Error) => callback(err),
    );
  }
}

/** The file's tail from its central directory on, or its last bytes when the record does not say where that is. */
async function directoryBytes(file: FileHandle, size: number): Promise<{ start: number; bytes: Buffer }> {
  const readAt = async (start: number, length: number) => {
    const bytes = Buffer.alloc(length);
    const { bytesRead } = await file.read(bytes, 0, length, start);
    return { start, bytes: bytes.subarray(0, bytesRead) };
  };
  const tail = await readAt(Math.max(0, size - tailBytes), Math.min(size, tailBytes));
  const at = tail.bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (at < 0 || at + 22 > tail.bytes.length) return tail;
  const directorySize = tail.bytes.readUInt32LE(at + 12);
  const directoryStart = tail.bytes.readUInt32LE(at + 16);
  // ZIP64 (0xffffffff) or a record that does not fit the file: yauzl finds its way from the tail alone.
  const fits = directoryStart + directorySize <= size && size - directoryStart <= maxCachedDirectory;
  if (directoryStart === 0xffffffff || !fits || directoryStart >= tail.start) return tail;
  return readAt(directoryStart, size - directoryStart);
}

/** Opens a zip for yauzl with lazy entries, its central directory read at once (see DirectoryCachedReader). */
export async function openZip(path: string): Promise<yauzl.ZipFile> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const cached = await directoryBytes(file, size);
    const reader = new DirectoryCachedReader(file, path, cached);
    return await new Promise((resolve, reject) =>
      yauzl.fromRandomAccessReader(reader, size, { lazyEntries: true, autoClose: true }, (err, zip) =>
        err || !zip ? reject(err ?? new Error('unreadable zip')) : resolve(zip),
      ),
    );
  } catch (err) {
    await file.close().catch(() => undefined);
    throw err;
  }
}
