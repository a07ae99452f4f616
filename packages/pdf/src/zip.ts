import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';

/** Most a verified zip may unpack to; a result is ours, so this only guards against our own bugs. */
const maxUnpacked = 2 * 1024 * 1024 * 1024;

/**
 * Unpacks a zip's files (those `want` picks by their index among the files) into `dir` under names
 * of our own, keeping nothing of the entries' paths. Returns the files written, in entry order.
 */
export function extractZip(
  path: string,
  dir: string,
  want: (index: number) => boolean = () => true,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('unreadable zip'));
      const files: string[] = [];
      let total = 0;
      let index = -1;
      zip.on('error', reject);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        if (!want(++index)) return zip.readEntry();
        total += entry.uncompressedSize;
        if (total > maxUnpacked) {
          zip.close();
          return reject(new Error('zip unpacks too large'));
        }
        zip.openReadStream(entry, async (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('unreadable entry'));
          try {
            await mkdir(dir, { recursive: true });
            const file = join(dir, `entry-${files.length + 1}`);
            await pipeline(stream, createWriteStream(file));
            files.push(file);
            zip.readEntry();
          } catch (error) {
            reject(error);
          }
        });
      });
      zip.readEntry();
    });
  });
}

export interface ZipWriter {
  /** Queues a file on disk; entries are written in the order added, read from disk as they go. */
  add(path: string, name: string): void;
  /** Ends the archive and resolves once it is fully on disk. */
  close(): Promise<void>;
  /** Gives up on the archive: later adds are ignored, and it resolves once the file is closed. */
  abort(): Promise<void>;
}

/**
 * A ZIP written while it is being filled, so files can be added as soon as they exist. Entries are
 * stored by default: PDFs, PNG and JPEG are compressed already, and deflating them again costs more
 * time than it saves bytes. `compress` deflates them.
 */
export function createZip(path: string, { compress = false } = {}): ZipWriter {
  const zip = new yazl.ZipFile();
  const out = createWriteStream(path);
  const done = finished(zip.outputStream.pipe(out));
  done.catch(() => undefined); // reported by close(); an aborted archive has no one to report to
  let failure: unknown;
  let aborted = false;
  zip.on('error', (err: unknown) => {
    failure ??= err;
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return {
    add(file, name) {
      if (!aborted) zip.addFile(file, name, { compress });
    },
    async close() {
      zip.end();
      await done;
      if (failure) throw failure;
    },
    async abort() {
      aborted = true;
      zip.outputStream.unpipe(out);
      out.destroy();
      // Closed before the caller goes on, so that nothing writes into a work folder being removed.
      await new Promise<void>((resolve) => (out.closed ? resolve() : out.once('close', () => resolve())));
    },
  };
}
