import type { FileKind } from '@quire/catalog';
import yauzl from 'yauzl';

/** Central-directory entries read before giving up: a zip with more is not a page and its assets. */
const maxEntries = 10_000;

/** The names of a zip's entries, from its central directory (nothing is unpacked). */
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
