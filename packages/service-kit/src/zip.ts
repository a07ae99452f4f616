import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileKind } from '@quire/catalog';
import yauzl from 'yauzl';

/** Central-directory entries read before giving up: a zip with more is not a page and its assets. */
const maxEntries = 10_000;

export function listZip(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('unreadable zip'));
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        if (names.length > maxEntries) {
          zip.close();
          resolve(names);
        } else zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A zip with index.html at its top is a web page with its assets; any other zip is just a zip. */
export async function detectZipKind(path: string): Promise<FileKind | undefined> {
  try {
    const names = await listZip(path);
    return names.includes('index.html') ? 'html-zip' : 'zip';
  } catch {
    return undefined;
  }
}

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
