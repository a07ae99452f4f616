import { z } from 'zod';

/** One field's value: text (numbers are written as text), a check box's state, or the options chosen. */
export type FormValue = string | number | boolean | string[];

/** The most characters the values' JSON may have: a form field's size in a tool call (formLimits). */
const maxLength = 64 * 1024;

const isValue = (v: unknown): v is FormValue =>
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  (Array.isArray(v) && v.every((o) => typeof o === 'string'));

/** A JSON option's value, or z.NEVER with an issue saying what it must be when it is not JSON. */
export function parseJsonField(text: string, ctx: z.RefinementCtx, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: `it must be JSON: ${what}` });
    return z.NEVER;
  }
}

/**
 * A form's values as JSON, an object of field names (as the PDF names them, in full) and values: text
 * for a text or date field, true/false or the state's name for a check box, the option's export value for
 * a radio group or a choice, a list of options for a list that takes several. Which field takes what is
 * the PDF's to say: the tool checks each value against its field.
 */
export const formValues = z
  .string()
  .trim()
  .max(maxLength)
  .transform((text, ctx): Record<string, FormValue> => {
    const parsed = parseJsonField(text, ctx, 'an object of field names and their values');
    if (parsed === z.NEVER) return z.NEVER;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      ctx.addIssue({ code: 'custom', message: 'it must be an object of field names and their values' });
      return z.NEVER;
    }
    const wrong = Object.entries(parsed).find(([, v]) => !isValue(v));
    if (wrong) {
      ctx.addIssue({
        code: 'custom',
        message: `field "${wrong[0]}" must be given text, a number, true or false, or a list of options`,
      });
      return z.NEVER;
    }
    return parsed as Record<string, FormValue>;
  })
  .meta({
    description:
      'The values to fill in, as JSON: {"field name": value}. Text for text and date fields; true, false or ' +
      'the state name for a check box; the export value for a radio group; one of the options for a choice ' +
      '(a list of them where several may be chosen).',
  });
