import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPorts, startStack, type Stack, type StackOptions } from '../../scripts/stack.ts';

/**
 * Every test stack listens below this port (its offset plus its highest default port): from here up
 * Linux hands ports out to client connections, and one may hold a listener's port when it starts.
 * Each file's stack takes an offset of its own (10 000 contract, 11 000 rate limit, 12 000 security,
 * 13 000 corpus, 20 000 and up for the rest), whose ports do not meet another's.
 */
export const testPortsBelow = 32_768;

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
  // The highest default port: the Auth emulator's when it runs, else nginx's.
  const highest =
    (options.portOffset ?? 0) + (options.authEmulator === false ? defaultPorts.public : defaultPorts.authEmulator);
  if (highest >= testPortsBelow) throw new Error(`${name}: port ${highest} is where clients get their ports`);
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
