import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack, type StackOptions } from '../../scripts/stack.ts';

/** A stack in a run folder of its own; `remove()` stops it and deletes the folder (again: nothing). */
export interface ScratchStack extends Stack {
  remove(): Promise<void>;
}

/**
 * Each test file gets a stack of its own in a fresh folder (`quire-<name>-…` under the temporary
 * folder, a short path), gone afterwards: nothing is shared between files or left behind by one.
 * If the stack does not start, the folder is removed before the error is passed on.
 */
export async function startScratchStack(name: string, options: Omit<StackOptions, 'runDir'>): Promise<ScratchStack> {
  const runDir = await mkdtemp(join(tmpdir(), `quire-${name}-`));
  let stack: Stack;
  try {
    stack = await startStack({ ...options, runDir });
  } catch (err) {
    await rm(runDir, { recursive: true, force: true });
    throw err;
  }
  let removed: Promise<void> | undefined;
  const remove = () =>
    (removed ??= (async () => {
      await stack.stop();
      await rm(runDir, { recursive: true, force: true });
    })());
  return { ...stack, remove };
}
