import { constants } from './site.ts';
import type { Tool } from './tool-definition.ts';

/**
 * How many files one job may give a tool: a single-file tool (or a workflow, by its first step) takes a
 * batch of up to `constants.batchMaxFiles`, each file processed on its own; a tool that reads several
 * files at once takes them as one call, under its own bound; a web-address tool takes none.
 */
export function jobFileLimit(first: Tool): { batch: boolean; max: number } {
  if (!('kinds' in first.input)) return { batch: false, max: 0 };
  if (first.input.max === 1) return { batch: true, max: constants.batchMaxFiles };
  return { batch: false, max: first.input.max };
}
