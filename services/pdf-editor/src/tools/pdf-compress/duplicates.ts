import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Job } from '@quire/base';
import { asDict, dumpObjects, objectNumber, referenced, relink, type Objects, type PdfDict } from '../../qpdf-json.ts';

/** The keys of a font descriptor that name an embedded font program. */
const fontPrograms = ['/FontFile', '/FontFile2', '/FontFile3'];

/**
 * Images and font programs stored more than once (a logo on every page of a merged file, a font each
 * part embedded again): for each copy, the reference of the first one ("12 0 R" → "7 0 R"). Streams
 * are the same when their dictionaries (with copies counted as one) and their stored bytes are; only
 * those whose dictionaries and lengths already match are read.
 */
export async function duplicateStreams(
  source: string,
  objects: Objects,
  dir: string,
  job: Job,
): Promise<Map<string, string>> {
  const programs = new Set<string>();
  for (const obj of Object.values(objects)) {
    const dict = asDict(obj.value);
    if (dict?.['/Type'] !== '/FontDescriptor') continue;
    for (const key of fontPrograms) {
      const program = referenced(dict[key]);
      if (program) programs.add(program);
    }
  }
  const streams = Object.entries(objects).filter(
    ([key, obj]) => obj.stream && (obj.stream.dict['/Subtype'] === '/Image' || programs.has(key)),
  );
  const moved = new Map<string, string>();
  const digests = new Map<string, string>();
  // Again while copies are found: two images alike but for their soft masks are alike once the masks are.
  for (let round = 0; round < 4; round++) {
    const alike = new Map<string, string[]>();
    for (const [key, obj] of streams) {
      if (moved.has(key.slice(4))) continue;
      const shape = described(relink(obj.stream!.dict, moved) as PdfDict, objects);
      alike.set(shape, [...(alike.get(shape) ?? []), key]);
    }
    const groups = [...alike.entries()].filter(([, keys]) => keys.length > 1);
    const unread = groups.flatMap(([, keys]) => keys).filter((key) => !digests.has(key));
    if (unread.length) {
      const stored = await dumpObjects(source, dir, job, { objects: unread.map(objectNumber), decode: 'none' });
      for (const key of unread) {
        const file = stored[key]?.stream?.datafile;
        if (file)
          digests.set(
            key,
            createHash('sha256')
              .update(await readFile(file))
              .digest('hex'),
          );
      }
    }
    const before = moved.size;
    for (const [shape, keys] of groups) {
      const first = new Map<string, string>();
      for (const key of keys.sort((a, b) => objectNumber(a) - objectNumber(b))) {
        const digest = digests.get(key);
        if (digest === undefined) continue;
        const kept = first.get(`${shape}\n${digest}`);
        if (kept) moved.set(key.slice(4), kept.slice(4));
        else first.set(`${shape}\n${digest}`, key);
      }
    }
    if (moved.size === before) break;
  }
  return moved;
}

/** A stream's dictionary without its length, and its length resolved: what two copies have alike. */
function described(dict: PdfDict, objects: Objects): string {
  const { ['/Length']: length, ...rest } = dict;
  const resolved = referenced(length);
  return JSON.stringify([rest, resolved ? objects[resolved]?.value : length]);
}
