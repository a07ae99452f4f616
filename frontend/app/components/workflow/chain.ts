import {
  accepts,
  checkWorkflow,
  findTool as catalogTool,
  outputKind,
  parseOptions,
  type FileKind,
  type WorkflowStep,
} from '@quire/catalog';
import { workflowTools } from '@quire/catalog/site';
import type { Tool } from '../../lib/tools.ts';

/** A step as the builder holds it: its tool, the options set on it (form fields), and a key for React. */
export interface Step {
  key: string;
  tool: string;
  options: Record<string, string>;
}

/** Why a tool cannot be the next step, in words the page translates. */
export type Unfit =
  | { reason: 'webAddress' }
  | { reason: 'password' }
  | { reason: 'severalFiles' }
  | { reason: 'kind'; kind: FileKind; after: string };

let counter = 0;
export const newStep = (tool: string, options: Record<string, string> = {}): Step => ({
  key: `s${++counter}`,
  tool,
  options,
});

/** A step's options as a workflow sends them: only those set, empty fields left out (they take defaults). */
export function stepOf(step: Step): WorkflowStep {
  const options = Object.fromEntries(Object.entries(step.options).filter(([, v]) => v !== ''));
  return Object.keys(options).length ? { tool: step.tool, options } : { tool: step.tool };
}

/** The kind of file the steps make, each with its options (its defaults where they are not valid). */
export function madeBy(steps: readonly Step[]): FileKind | undefined {
  const last = steps.at(-1);
  const tool = last && catalogTool(last.tool);
  if (!tool) return undefined;
  const parsed = parseOptions(tool, stepOf(last).options ?? {});
  const options = parsed.ok ? parsed.value : tool.options.safeParse({}).data;
  return options ? outputKind(tool, options as Record<string, unknown>) : undefined;
}

/** Whether a tool may follow these steps (come first when there are none); why not, when it may not. */
export function unfit(tool: Tool, before: readonly Step[]): Unfit | undefined {
  if (!('kinds' in tool.input)) return { reason: 'webAddress' };
  // A password the result is protected with is never kept in a workflow (checkWorkflow refuses it).
  if (tool.options.some((f) => f.secret && f.required)) return { reason: 'password' };
  if (before.length === 0) return undefined;
  if (tool.input.min > 1) return { reason: 'severalFiles' };
  const made = madeBy(before);
  const catalogEntry = catalogTool(tool.id);
  if (made && catalogEntry && !accepts(catalogEntry, made))
    return { reason: 'kind', kind: made, after: before.at(-1)!.tool };
  return undefined;
}

/** The tools the builder offers: the spec's workflow tools first, then the rest of the catalog. */
export function offered(catalog: readonly Tool[]): Tool[] {
  const first = workflowTools.flatMap((id) => catalog.filter((t) => t.id === id));
  return [...first, ...catalog.filter((t) => !first.includes(t))];
}

/** Why a tool is not offered to add: it does not fit, or it is a step already (Duplicate adds it again). */
export type NotOffered = Unfit | { reason: 'already' };

/** Each offered tool with why it cannot come next, if it cannot; the ones that fit first. */
export function choices(catalog: readonly Tool[], steps: readonly Step[]) {
  const already = (tool: Tool) => (steps.some((s) => s.tool === tool.id) ? { reason: 'already' as const } : undefined);
  const all = offered(catalog).map((tool) => ({
    tool,
    unfit: (unfit(tool, steps) ?? already(tool)) as NotOffered | undefined,
  }));
  return [...all.filter((c) => !c.unfit), ...all.filter((c) => c.unfit)];
}

/** The steps with one moved by `by` places; the same steps when it cannot move that far. */
export function moveStep(steps: readonly Step[], index: number, by: number): Step[] {
  const to = index + by;
  if (index < 0 || index >= steps.length || to < 0 || to >= steps.length) return [...steps];
  const next = [...steps];
  const [step] = next.splice(index, 1);
  next.splice(to, 0, step!);
  return next;
}

export const removeStep = (steps: readonly Step[], index: number) => steps.filter((_, i) => i !== index);

/** A copy of a step, with its options, right after it. */
export function duplicateStep(steps: readonly Step[], index: number): Step[] {
  const step = steps[index];
  if (!step) return [...steps];
  return [...steps.slice(0, index + 1), newStep(step.tool, { ...step.options }), ...steps.slice(index + 1)];
}

/** What is wrong with one step where it stands: it does not fit, or an option is not valid. */
export type StepProblem = Unfit | { reason: 'option'; option: string };

export function stepProblem(steps: readonly Step[], index: number, catalog: readonly Tool[]): StepProblem | undefined {
  const step = steps[index]!;
  const tool = catalog.find((t) => t.id === step.tool);
  const entry = catalogTool(step.tool);
  if (!tool || !entry) return undefined;
  const misfit = unfit(tool, steps.slice(0, index));
  if (misfit) return misfit;
  const parsed = parseOptions(entry, stepOf(step).options ?? {});
  return parsed.ok ? undefined : { reason: 'option', option: parsed.field ?? '' };
}

/** The whole chain checked as the server will check it: the catalog's own check, one source of truth. */
export const checkSteps = (steps: readonly Step[]) => checkWorkflow(steps.map(stepOf));

/** Steps from a workflow's steps (a saved one, a file, the address's ids). */
export const stepsFrom = (steps: readonly (string | WorkflowStep)[]): Step[] =>
  steps.map((s) =>
    typeof s === 'string'
      ? newStep(s)
      : newStep(s.tool, Object.fromEntries(Object.entries(s.options ?? {}).map(([k, v]) => [k, String(v)]))),
  );
