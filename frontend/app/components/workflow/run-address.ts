import type { WorkflowStep } from '@quire/catalog';
import { saveWorkflow, type Saved } from './saved-api.ts';

/** Saved workflows made to run, by their steps: running the same steps again saves nothing new. */
const savedForRun = new Map<string, string>();

/**
 * Where a run is sent: a call, or a job (a batch). Without options past the first step, by its steps
 * (the first step's options go in the form); else the workflow is saved (anonymously) and run by its
 * id, each step with its options.
 */
export async function runAddress(
  steps: WorkflowStep[],
  route: 'call' | 'job',
): Promise<{ ok: true; address: string } | Exclude<Saved, { ok: true }>> {
  if (steps.slice(1).every((s) => !s.options)) {
    const ids = steps.map((s) => encodeURIComponent(s.tool)).join(',');
    return { ok: true, address: `${route === 'job' ? '/api/v1/jobs?' : '/api.php?workflow=custom&'}steps=${ids}` };
  }
  const key = JSON.stringify(steps);
  let id = savedForRun.get(key);
  if (!id) {
    const saved = await saveWorkflow({ name: '', steps }, false);
    if (!saved.ok) return saved;
    id = saved.id;
    savedForRun.set(key, id);
  }
  return {
    ok: true,
    address: `${route === 'job' ? '/api/v1/jobs' : '/api/v1/workflows'}?saved=${encodeURIComponent(id)}`,
  };
}
