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

/** A Markdown file's name, not one of the hidden files an archiver adds beside it. */
export const isMarkdownName = (name: string) => /\.(md|markdown)$/i.test(name) && !/(^|\/)(__MACOSX\/|\.)/.test(name);

/**
 * A zip with index.html at its top is a web page with its assets, one with a single Markdown file a
 * document with its images; any other zip is just a zip.
 */
export async function detectZipKind(path: string): Promise<FileKind | undefined> {
  try {
    const names = await listZip(path);
    if (names.includes('index.html')) return 'html-zip';
    return names.filter(isMarkdownName).length === 1 ? 'md-zip' : 'zip';
  } catch {
    return undefined;
  }
}
