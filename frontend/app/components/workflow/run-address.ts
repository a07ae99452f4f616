import type { WorkflowStep } from '@quire/catalog';
import { saveWorkflow, type Saved } from './saved-api.ts';

/** Saved workflows made to run, by their steps: running the same steps again saves nothing new. */
const savedForRun = new Map<string, string>();

/**
 * Where a run is sent. Without options past the first step, the spec's address (the first step's options
 * go in the form); else the workflow is saved (anonymously) and run by its id, each step with its options.
 */
export async function runAddress(
  steps: WorkflowStep[],
): Promise<{ ok: true; address: string } | Exclude<Saved, { ok: true }>> {
  if (steps.slice(1).every((s) => !s.options))
    return {
      ok: true,
      address: `/api.php?workflow=custom&steps=${steps.map((s) => encodeURIComponent(s.tool)).join(',')}`,
    };
  const key = JSON.stringify(steps);
  let id = savedForRun.get(key);
  if (!id) {
    const saved = await saveWorkflow({ name: '', steps }, false);
    if (!saved.ok) return saved;
    id = saved.id;
    savedForRun.set(key, id);
  }
  return { ok: true, address: `/api/v1/workflows?saved=${encodeURIComponent(id)}` };
}
