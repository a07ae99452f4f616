import { z } from 'zod';
import type { Tool } from './tool-definition.ts';

/** The JSON Schema of a tool's form fields, as sent (strings with defaults). */
export function optionsSchema(tool: Tool): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.options, { io: 'input', unrepresentable: 'any' });
  return schema;
}

/** One form field of a tool's options, as a form shows it. */
export interface OptionField {
  name: string;
  type: 'choice' | 'boolean' | 'integer' | 'number' | 'text';
  choices: string[];
  default: string | undefined;
  required: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  pattern?: string;
  /** A password: a form hides what is typed and never offers to fill it in. */
  secret?: boolean;
  /** Text of several lines (one item a line): a form shows a text area. */
  multiline?: boolean;
}

interface PropertySchema {
  type?: string;
  enum?: string[];
  default?: string | number;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

/** A tool's options as form fields, in the schema's order: the site's forms and the API docs read these. */
export function optionFields(tool: Tool): OptionField[] {
  const schema = optionsSchema(tool) as { properties?: Record<string, PropertySchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, p]) => {
    const choices = p.enum ?? [];
    const boolean = choices.length === 2 && choices.includes('true') && choices.includes('false');
    const type = boolean
      ? 'boolean'
      : choices.length
        ? 'choice'
        : p.type === 'integer' || p.type === 'number'
          ? p.type
          : 'text';
    return {
      name,
      type,
      choices,
      default: p.default === undefined ? undefined : String(p.default),
      required: schema.required?.includes(name) ?? false,
      ...(p.minimum !== undefined && { min: p.minimum }),
      ...(p.maximum !== undefined && { max: p.maximum }),
      ...(p.maxLength !== undefined && { maxLength: p.maxLength }),
      ...(p.pattern !== undefined && { pattern: p.pattern }),
      ...(p.format === 'password' && { secret: true }),
      ...(p.format === 'multiline' && { multiline: true }),
    };
  });
}
