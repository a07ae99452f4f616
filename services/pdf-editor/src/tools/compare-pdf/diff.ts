import { diffArrays, type ChangeObject } from 'diff';
import { ToolError } from '@quire/base';
import type { PlacedWord } from './words.ts';

/** How a word differs: only in the first document, only in the second, or replaced by other words. */
export type Mark = 'removed' | 'added' | 'changed';

export interface WordDiff {
  /** By index into each document's words. */
  first: Map<number, Mark>;
  second: Map<number, Mark>;
  removed: number;
  added: number;
  /** Runs of words that differ, a replacement counting once. */
  changes: number;
}

/**
 * The two documents' words aligned as a whole (Myers' diff, jsdiff), so text that moves to another
 * page is not counted as changed. Computed in slices that leave the event loop free, within `timeoutMs`:
 * documents too different to align in that time are refused.
 */
export async function diffWords(first: PlacedWord[], second: PlacedWord[], timeoutMs: number): Promise<WordDiff> {
  const changes = await new Promise<ChangeObject<string[]>[] | undefined>((resolve) =>
    diffArrays(
      first.map((w) => w.key),
      second.map((w) => w.key),
      { timeout: timeoutMs, callback: (result) => resolve(result) },
    ),
  );
  if (!changes)
    throw new ToolError(
      'file_too_large',
      'These documents differ too much to compare word by word in the time a job has. Compare fewer pages at once.',
    );
  const diff: WordDiff = { first: new Map(), second: new Map(), removed: 0, added: 0, changes: 0 };
  const mark = (marks: Map<number, Mark>, from: number, count: number, how: Mark) => {
    for (let k = from; k < from + count; k++) marks.set(k, how);
  };
  let i = 0;
  let j = 0;
  for (let k = 0; k < changes.length; k++) {
    const c = changes[k]!;
    if (!c.added && !c.removed) {
      i += c.count;
      j += c.count;
      continue;
    }
    diff.changes++;
    const next = changes[k + 1];
    const removed = c.removed ? c.count : next?.removed && c.added ? next.count : 0;
    const added = c.added ? c.count : next?.added && c.removed ? next.count : 0;
    const replaced = removed > 0 && added > 0;
    if (replaced) k++;
    mark(diff.first, i, removed, replaced ? 'changed' : 'removed');
    mark(diff.second, j, added, replaced ? 'changed' : 'added');
    diff.removed += removed;
    diff.added += added;
    i += removed;
    j += added;
  }
  return diff;
}
