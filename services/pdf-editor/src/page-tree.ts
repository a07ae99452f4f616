import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import type { Job } from '@quire/base';
import { applyUpdates, asDict, dumpObjects, referenced, type Objects, type PdfDict } from './qpdf-json.ts';

/**
 * Writes `source` to `out` with every page tree node's /Count set to the pages it really holds, so that
 * a file claiming billions of pages (which qpdf refuses to rebuild, and a reader may trust) states the
 * truth. A node met twice counts once: a tree that loops is left for qpdf to refuse.
 */
export async function mendPageCounts(source: string, out: string, job: Job): Promise<void> {
  const dir = await mkdtemp(join(job.workdir, 'tree-'));
  const objects = await dumpObjects(source, dir, job);
  const catalog = asDict(objects[referenced(asDict(objects.trailer?.value)?.['/Root']) ?? '']?.value);
  const root = referenced(catalog?.['/Pages']);
  const updates: Objects = {};
  const seen = new Set<string>();
  const count = (key: string): number => {
    const node = asDict(objects[key]?.value);
    if (!node || seen.has(key)) return 0;
    seen.add(key);
    const kids = node['/Kids'];
    if (node['/Type'] !== '/Pages' && !Array.isArray(kids)) return 1;
    const held = (Array.isArray(kids) ? kids : []).reduce<number>((sum, kid) => {
      const ref = referenced(kid);
      return sum + (ref ? count(ref) : 0);
    }, 0);
    if (node['/Count'] !== held) updates[key] = { value: { ...node, '/Count': held } satisfies PdfDict };
    return held;
  };
  if (root) count(root);
  await applyUpdates(source, out, updates, dir, job);
}
