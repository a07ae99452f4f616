import { createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type yauzl from 'yauzl';
import { openZip } from '@quire/detect';
import { createZip } from '@quire/pdf';

/** Past this, the workbook is converted as it is: LibreOffice reads it within its own limits. */
const maxUnpacked = 1024 * 1024 * 1024;
const worksheet = /^xl\/worksheets\/[^/]+\.xml$/;

/**
 * A copy of an OOXML workbook (`dest`) without the scroll position each sheet was saved with
 * (`topLeftCell`): LibreOffice's one-page-a-sheet export starts a sheet where it was scrolled to and
 * drops the rows and columns above and left of it. False, and no copy, when there is nothing to
 * clear or the workbook is not one to rewrite.
 */
export async function withoutScrollPositions(src: string, dest: string, dir: string): Promise<boolean> {
  await mkdir(dir, { recursive: true });
  const entries: { name: string; path: string }[] = [];
  let cleared = false;
  try {
    const zip = await openZip(src);
    await new Promise<void>((resolve, reject) => {
      let total = 0;
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        total += entry.uncompressedSize;
        if (total > maxUnpacked) {
          zip.close();
          return reject(new Error('too large to rewrite'));
        }
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('unreadable entry'));
          const path = join(dir, `entry-${entries.length}`);
          entries.push({ name: entry.fileName, path });
          // Any failure of an entry, its rewrite included, ends the copy: the workbook converts as it is.
          pipeline(stream, createWriteStream(path))
            .then(async () => {
              if (worksheet.test(entry.fileName)) {
                const xml = await readFile(path, 'utf8');
                if (xml.includes('topLeftCell')) {
                  await writeFile(path, xml.replace(/ topLeftCell="[^"]*"/g, ''));
                  cleared = true;
                }
              }
              zip.readEntry();
            })
            .catch(reject);
        });
      });
      zip.readEntry();
    });
  } catch {
    return false;
  }
  if (!cleared) return false;
  const out = createZip(dest, { compress: true });
  for (const e of entries) out.add(e.path, e.name);
  await out.close();
  return true;
}
