import type { ErrorDetails } from '@quire/catalog/errors';
import { authHeaders } from '../../lib/auth.ts';
import { parseWorkflow, type WorkflowFile } from './workflow-file.ts';

/** What saving came to: the saved workflow's id and link, or the server's error. */
export type Saved =
  { ok: true; id: string; link: string } | { ok: false; code?: string; message?: string; details?: ErrorDetails };

/**
 * Saves a workflow with its options (`POST /api/v1/workflows/saved`). `mine`: as the signed-in user's,
 * listed on their account page; a workflow saved only to run it is anonymous.
 */
export async function saveWorkflow(workflow: WorkflowFile, mine: boolean): Promise<Saved> {
  try {
    const headers = mine ? await authHeaders().catch((): Record<string, string> => ({})) : {};
    const res = await fetch('/api/v1/workflows/saved', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ name: workflow.name || undefined, steps: workflow.steps }),
    });
    const body = (await res.json().catch(() => ({}))) as {
      id?: string;
      link?: string;
      error?: { code?: string; message?: string; details?: ErrorDetails };
    };
    if (res.ok && body.id && body.link) return { ok: true, id: body.id, link: body.link };
    return { ok: false, ...body.error };
  } catch {
    return { ok: false };
  }
}

/** A saved workflow by its id, checked as a loaded file is; undefined when there is none. */
export async function loadSaved(id: string): Promise<WorkflowFile | undefined> {
  try {
    const res = await fetch(`/api/v1/workflows/saved/${encodeURIComponent(id)}`);
    if (!res.ok) return undefined;
    const read = parseWorkflow(await res.text());
    return read.ok ? { ...read.workflow, id } : undefined;
  } catch {
    return undefined;
  }
}
