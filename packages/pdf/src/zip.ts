import { createReadStream, createWriteStream, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import type yauzl from 'yauzl';
import { openZip } from '@quire/detect';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

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
    openZip(path).then((zip) => {
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
    }, reject);
  });
}

/** An entry's content: a file on disk (read as it goes), bytes, or chunks as they are made. */
export type ZipSource = string | Uint8Array | AsyncIterable<Uint8Array>;

export interface ZipWriter {
  /**
   * Queues an entry; entries are written in the order added, each read as it goes. `compress` sets this
   * entry's compression apart from the archive's.
   */
  add(source: ZipSource, name: string, opts?: { compress?: boolean }): void;
  /** Ends the archive and resolves once it is fully on disk. */
  close(): Promise<void>;
  /** Gives up on the archive: later adds are ignored, and it resolves once the file is closed. */
  abort(): Promise<void>;
}

/**
 * Entries up to this size are read in one blocking call, larger ones streamed: a thousand pages of a
 * split read asynchronously cost three times the CPU (several thread-pool trips each), while reading
 * a megabyte blocks for well under a millisecond.
 */
const readAtOnceBytes = 1024 * 1024;

/**
 * A ZIP written while it is being filled, so files can be added as soon as they exist; entries go in
 * the order added. Entries are stored by default: PDFs, PNG and JPEG are compressed already, and
 * deflating them again costs more time than it saves bytes. `compress` deflates them. fflate writes
 * the archive: its checksums and headers cost a fraction of what stream-per-entry writers do.
 */
export function createZip(path: string, { compress = false } = {}): ZipWriter {
  const out = createWriteStream(path);
  const done = finished(out);
  done.catch(() => undefined); // reported by close(); an aborted archive has no one to report to
  let failure: unknown;
  let aborted = false;
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      failure ??= err;
      out.destroy(err);
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  const addEntry = async (source: ZipSource, name: string, deflate: boolean) => {
    const entry = deflate ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    zip.add(entry);
    if (source instanceof Uint8Array) entry.push(source, true);
    else if (typeof source === 'string' && statSync(source).size <= readAtOnceBytes)
      entry.push(readFileSync(source), true);
    else {
      for await (const chunk of typeof source === 'string' ? createReadStream(source) : source) {
        if (aborted) return;
        entry.push(chunk as Buffer);
        if (out.writableNeedDrain) await once(out, 'drain');
      }
      entry.push(new Uint8Array(0), true);
    }
    // Written as fast as it is read, but never more than a buffer ahead of the disk.
    if (out.writableNeedDrain) await once(out, 'drain');
  };
  let queue = Promise.resolve();
  return {
    add(source, name, opts = {}) {
      queue = queue.then(async () => {
        if (aborted || failure) return;
        await addEntry(source, name, opts.compress ?? compress).catch((err: unknown) => void (failure ??= err));
      });
    },
    async close() {
      await queue;
      if (!failure) zip.end();
      else out.destroy();
      await done.catch((err: unknown) => void (failure ??= err));
      if (failure) throw failure;
    },
    async abort() {
      aborted = true;
      await queue;
      out.destroy();
      // Closed before the caller goes on, so that nothing writes into a work folder being removed.
      await new Promise<void>((resolve) => (out.closed ? resolve() : out.once('close', () => resolve())));
    },
  };
}
