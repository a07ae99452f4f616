import type { FileKind } from '@quire/catalog';
import type yauzl from 'yauzl';
import { openZip } from './zip-open.ts';

/** Central-directory entries read before giving up: a zip with more is not a page and its assets. */
const maxEntries = 10_000;

/** The names of a zip's entries, from its central directory (nothing is unpacked). */
export async function listZip(path: string): Promise<string[]> {
  const zip = await openZip(path);
  return new Promise((resolve, reject) => {
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
