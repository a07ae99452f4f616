import { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** A zip's bytes wherever they are kept, read by range (`end` excluded). */
export interface RangeSource {
  size: number;
  read(start: number, end: number): Readable;
}

class RangeReader extends yauzl.RandomAccessReader {
  constructor(private readonly source: RangeSource) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return end > start ? this.source.read(start, end) : Readable.from([]);
  }
}

/**
 * One entry of a zip, found by its exact name and read from the archive where it is kept (a stored
 * result, say) without unpacking the others; undefined when the zip has no such entry.
 */
export function openZipEntry(
  source: RangeSource,
  name: string,
): Promise<{ size: number; stream: Readable } | undefined> {
  return new Promise((resolve, reject) => {
    const reader = new RangeReader(source);
    yauzl.fromRandomAccessReader(reader, source.size, { lazyEntries: true, autoClose: false }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('unreadable zip'));
      const done = (value?: { size: number; stream: Readable }, error?: Error) => {
        if (error) {
          zip.close();
          return reject(error);
        }
        if (!value) zip.close();
        else value.stream.once('close', () => zip.close());
        resolve(value);
      };
      zip.on('error', (e: Error) => done(undefined, e));
      zip.on('end', () => done());
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return done(undefined, e ?? new Error('unreadable entry'));
          done({ size: entry.uncompressedSize, stream });
        });
      });
      zip.readEntry();
    });
  });
}
