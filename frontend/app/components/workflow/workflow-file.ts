import type { WorkflowStep } from '@quire/catalog';
import { checkWorkflow } from '@quire/catalog';

/** A workflow as it is saved, shared and downloaded: the same JSON as `GET /api/v1/workflows/saved/{id}`. */
export interface WorkflowFile {
  name: string;
  steps: WorkflowStep[];
  id?: string;
  link?: string;
}

/** The file a visitor downloads. */
export function workflowJson(workflow: WorkflowFile): string {
  return `${JSON.stringify(workflow, null, 2)}\n`;
}

/** A file name from the workflow's name: letters, digits and dashes, ending in .json. */
export function workflowFileName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'workflow'}.quire-workflow.json`;
}

const isOptionValue = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * A workflow read from JSON (a loaded file or the API's answer), checked as a run checks it; not ok,
 * with the reason when it is not one. Only `name` and `steps` are read.
 */
export function parseWorkflow(text: string): { ok: true; workflow: WorkflowFile } | { ok: false; message?: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  const { name, steps } = (data ?? {}) as { name?: unknown; steps?: unknown };
  if (!Array.isArray(steps)) return { ok: false };
  const read: WorkflowStep[] = [];
  for (const s of steps as unknown[]) {
    const { tool, options } = (s ?? {}) as { tool?: unknown; options?: unknown };
    if (typeof tool !== 'string') return { ok: false };
    if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options)))
      return { ok: false };
    const entries = Object.entries((options ?? {}) as Record<string, unknown>);
    if (!entries.every(([, v]) => isOptionValue(v))) return { ok: false };
    read.push(entries.length ? { tool, options: Object.fromEntries(entries) as WorkflowStep['options'] } : { tool });
  }
  const checked = checkWorkflow(read);
  if (!checked.ok) return { ok: false, message: checked.message };
  // The catalog's own ids, so that an alias in a hand-written file becomes its tool.
  const canonical = read.map((s, i) => ({ ...s, tool: checked.value.tools[i]!.id }));
  return { ok: true, workflow: { name: typeof name === 'string' ? name.slice(0, 100) : '', steps: canonical } };
}
