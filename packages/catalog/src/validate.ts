import { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import { optionFields } from './forms.ts';
import type { FileKind } from './kinds.ts';
import type { Tool } from './tool-definition.ts';
import { findTool, outputKind } from './tools.ts';

export interface Invalid {
  code: ErrorCode;
  message: string;
  /** The form field at fault, when there is one. */
  field?: string;
}

export type Checked<T> = { ok: true; value: T } | ({ ok: false } & Invalid);

/**
 * A tool's options from form fields: empty fields count as not given, unknown fields are ignored,
 * and a bad value is an `invalid_option` whose message names the field and what it may be.
 */
export function parseOptions(tool: Tool, fields: Record<string, unknown>): Checked<Record<string, unknown>> {
  const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '' && v !== undefined));
  const result = tool.options.safeParse(given);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0]!;
  const field = String(issue.path[0] ?? 'options');
  return { ok: false, code: 'invalid_option', field, message: describeIssue(field, issue) };
}

function describeIssue(field: string, issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `The option "${field}" must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'too_small':
      return issue.origin === 'string'
        ? `The option "${field}" must not be empty.`
        : `The option "${field}" must be at least ${String(issue.minimum)}.`;
    case 'too_big':
      return issue.origin === 'string'
        ? `The option "${field}" must be at most ${String(issue.maximum)} characters long.`
        : `The option "${field}" must be at most ${String(issue.maximum)}.`;
    case 'invalid_type':
      return issue.input === undefined
        ? `The option "${field}" is required.`
        : `The option "${field}" must be a ${issue.expected}.`;
    case 'invalid_format':
    case 'custom':
      return `The option "${field}" is not valid: ${issue.message}.`;
    default:
      return `The option "${field}" is not valid.`;
  }
}

/** Whether a tool may run on this many files. */
export function checkFileCount(tool: Tool, count: number): Invalid | undefined {
  if (!('kinds' in tool.input)) return undefined;
  if (count === 0) return { code: 'missing_file', message: 'Please choose a file.' };
  if (count < tool.input.min)
    return { code: 'too_few_files', message: `This tool needs at least ${tool.input.min} files.` };
  if (count > tool.input.max)
    return {
      code: 'too_many_files',
      message:
        tool.input.max === 1
          ? 'This tool takes one file at a time.'
          : `This tool takes at most ${tool.input.max} files.`,
    };
  return undefined;
}

/** Whether a tool accepts a file of this kind. */
export function accepts(tool: Tool, kind: FileKind): boolean {
  return 'kinds' in tool.input && tool.input.kinds.includes(kind);
}

/** A step of a workflow: a tool, and the options it runs with (its form fields; the rest take their defaults). */
export interface WorkflowStep {
  tool: string;
  options?: Record<string, string | number | boolean>;
}

/** A checked workflow: its tools, and each step's options as the form fields its service is sent. */
export interface Chain {
  tools: Tool[];
  fields: Record<string, string>[];
}

/** Beyond this many steps a workflow is refused: no real chain is longer, and each step is a whole call. */
export const maxWorkflowSteps = 20;

const refuse = (message: string): { ok: false } & Invalid => ({ ok: false, code: 'invalid_workflow', message });

/**
 * A chain of tools checked before anything runs: every id known, the first step takes a file, each
 * step's options valid for its tool (no password kept in them), and each later step accepts what the
 * one before makes with its options. A step given no options runs with its tool's defaults.
 */
export function checkWorkflow(steps: (string | WorkflowStep)[]): Checked<Chain> {
  if (steps.length === 0 || steps.some((s) => s === '' || (typeof s === 'object' && !s.tool)))
    return refuse('Please select at least one tool.');
  if (steps.length > maxWorkflowSteps) return refuse(`A workflow has at most ${maxWorkflowSteps} steps.`);
  const chain: Chain = { tools: [], fields: [] };
  let made: FileKind | undefined;
  for (const [i, step] of steps.entries()) {
    const { tool: id, options = {} } = typeof step === 'string' ? { tool: step } : step;
    const tool = findTool(id);
    const at = `Step ${i + 1} ("${id}")`;
    if (!tool) return refuse(`${at} is not a known tool.`);
    if (!('kinds' in tool.input)) return refuse(`${at} takes a web address, not a file.`);
    const fields = Object.fromEntries(Object.entries(options).map(([k, v]) => [k, String(v)]));
    const known = new Set(Object.keys((tool.options as { shape?: object }).shape ?? {}));
    const unknown = Object.keys(fields).find((k) => !known.has(k));
    if (unknown) return refuse(`${at} has no option "${unknown}".`);
    const secret = Object.keys(fields).find((k) => isPasswordOption(tool, k));
    if (secret) return refuse(`${at}: passwords are not kept in a workflow ("${secret}").`);
    const parsed = parseOptions(tool, fields);
    if (!parsed.ok)
      return refuse(
        Object.keys(fields).length ? `${at}: ${parsed.message}` : `${at} needs options that a workflow cannot give.`,
      );
    if (made && tool.input.min > 1) return refuse(`${at} needs several files, so it can only come first.`);
    if (made && !accepts(tool, made)) {
      const previous = chain.tools.at(-1)!;
      return refuse(`${at} cannot read the ${made.toUpperCase()} file that step ${i} ("${previous.id}") makes.`);
    }
    chain.tools.push(tool);
    chain.fields.push(fields);
    made = outputKind(tool, parsed.value);
  }
  return { ok: true, value: chain };
}

/** Whether an option holds a password: one of a protected result's, or any marked so (a certificate's). */
function isPasswordOption(tool: Tool, option: string): boolean {
  const { password, ownerPassword } = tool.checks.encrypted ?? {};
  return (
    option === password || option === ownerPassword || optionFields(tool).some((f) => f.name === option && f.secret)
  );
}
