import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import type { Job } from '@quire/base';
import {
  applyUpdates,
  asDict,
  dumpObjects,
  referenced,
  type Objects,
  type PdfDict,
  type PdfValue,
} from './qpdf-json.ts';

/**
 * Writes `source` to `out` with every page tree node's /Count set to the pages it really holds, so that
 * a file claiming billions of pages (which qpdf refuses to rebuild, and a reader may trust) states the
 * truth. A node met twice counts once. A tree that loops is left for qpdf to refuse, unless `cutLoops`:
 * then a node's kid that is one of its own ancestors is taken out of its /Kids (what repair does).
 * Returns how many such kids were cut.
 */
export async function mendPageCounts(
  source: string,
  out: string,
  job: Job,
  { cutLoops = false }: { cutLoops?: boolean } = {},
): Promise<number> {
  const dir = await mkdtemp(join(job.workdir, 'tree-'));
  const objects = await dumpObjects(source, dir, job);
  const catalog = asDict(objects[referenced(asDict(objects.trailer?.value)?.['/Root']) ?? '']?.value);
  const root = referenced(catalog?.['/Pages']);
  const updates: Objects = {};
  const seen = new Set<string>();
  /** The nodes from the root down to the one being counted. */
  const ancestors = new Set<string>();
  let cut = 0;
  const count = (key: string): number => {
    const node = asDict(objects[key]?.value);
    if (!node || seen.has(key)) return 0;
    seen.add(key);
    const kids = node['/Kids'];
    if (node['/Type'] !== '/Pages' && !Array.isArray(kids)) return 1;
    ancestors.add(key);
    const kept: PdfValue[] = [];
    let held = 0;
    for (const kid of Array.isArray(kids) ? kids : []) {
      const ref = referenced(kid);
      if (cutLoops && ref && ancestors.has(ref)) {
        cut++;
        continue;
      }
      kept.push(kid);
      held += ref ? count(ref) : 0;
    }
    ancestors.delete(key);
    const kidsCut = Array.isArray(kids) && kept.length !== kids.length;
    if (node['/Count'] !== held || kidsCut)
      updates[key] = { value: { ...node, '/Count': held, ...(kidsCut && { '/Kids': kept }) } satisfies PdfDict };
    return held;
  };
  if (root) count(root);
  await applyUpdates(source, out, updates, dir, job);
  return cut;
}
