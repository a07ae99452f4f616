import { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import type { FileKind } from './kinds.ts';
import type { Tool } from './tool-definition.ts';
import { defaultOutputKind, findTool } from './tools.ts';

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

/**
 * A chain of tools checked before anything runs: every id known, the first step takes a file, and
 * each later step accepts what the one before makes (with default options, as workflows have no others).
 */
export function checkWorkflow(steps: string[]): Checked<Tool[]> {
  if (steps.length === 0 || steps.some((s) => s === ''))
    return { ok: false, code: 'invalid_workflow', message: 'Please select at least one tool.' };
  const chain: Tool[] = [];
  for (const [i, id] of steps.entries()) {
    const tool = findTool(id);
    if (!tool) return { ok: false, code: 'invalid_workflow', message: `Step ${i + 1} ("${id}") is not a known tool.` };
    const previous = chain.at(-1);
    if (!('kinds' in tool.input))
      return {
        ok: false,
        code: 'invalid_workflow',
        message: `Step ${i + 1} ("${id}") takes a web address, not a file.`,
      };
    if (!tool.options.safeParse({}).success)
      return {
        ok: false,
        code: 'invalid_workflow',
        message: `Step ${i + 1} ("${id}") needs options that a workflow cannot give.`,
      };
    if (previous && tool.input.min > 1)
      return {
        ok: false,
        code: 'invalid_workflow',
        message: `Step ${i + 1} ("${id}") needs several files, so it can only come first.`,
      };
    if (previous) {
      const made = defaultOutputKind(previous);
      if (!accepts(tool, made))
        return {
          ok: false,
          code: 'invalid_workflow',
          message: `Step ${i + 1} ("${id}") cannot read the ${made.toUpperCase()} file that step ${i} ("${previous.id}") makes.`,
        };
    }
    chain.push(tool);
  }
  return { ok: true, value: chain };
}
