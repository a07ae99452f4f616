import { z } from 'zod';
import { parseJsonField } from './form-values.ts';

/**
 * redact-pdf's options. What to remove is given as words, built-in patterns, one regular expression and
 * boxes drawn on pages; at least one of them. Boxes are fractions of the page as a viewer shows it
 * (turned), from its top-left corner, so that the site's preview and the tool agree whatever the page size.
 */

/** The longest regular expression taken: enough for any real pattern, and a bound on what is compiled. */
export const maxRegexLength = 300;
/** The most boxes one call may draw. */
export const maxRedactionBoxes = 500;

export interface RedactionBox {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

const fraction = z.number().min(0).max(1);
const box = z
  .object({ page: z.number().int().min(1), x: fraction, y: fraction, width: fraction, height: fraction })
  .refine((b) => b.width > 0 && b.height > 0 && b.x + b.width <= 1.0001 && b.y + b.height <= 1.0001, {
    message: 'each box must have a size and lie on its page',
  });

export const redactionBoxes = z
  .string()
  .trim()
  .max(64 * 1024)
  .transform((text, ctx): RedactionBox[] => {
    const parsed = parseJsonField(text, ctx, 'a list of {page, x, y, width, height}');
    if (parsed === z.NEVER) return z.NEVER;
    const boxes = z.array(box).max(maxRedactionBoxes).safeParse(parsed);
    if (!boxes.success) {
      ctx.addIssue({
        code: 'custom',
        message: `it must be a list of at most ${maxRedactionBoxes} boxes {page, x, y, width, height}, page from 1, the rest fractions of the page from 0 to 1 (${boxes.error.issues[0]!.message})`,
      });
      return z.NEVER;
    }
    return boxes.data;
  })
  .meta({
    description:
      'Areas to black out, as JSON: [{"page": 1, "x": 0.1, "y": 0.2, "width": 0.3, "height": 0.05}], each measured in ' +
      'fractions of the page as it is shown (turned), from its top-left corner.',
  });

/** A regular expression JavaScript reads (with the u flag); syntax errors are named. */
export const redactionRegex = z
  .string()
  .max(maxRegexLength)
  .superRefine((source, ctx) => {
    try {
      new RegExp(source, 'u');
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: `it is not a regular expression (${err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : 'unreadable'})`,
      });
    }
  })
  .meta({
    description: `A regular expression (JavaScript's syntax, at most ${maxRegexLength} characters) whose matches in the text are removed.`,
  });

export const redactionTerms = z
  .string()
  .max(10_000)
  .meta({ format: 'multiline', description: 'Words or phrases to remove wherever they appear, one per line.' });

/** Whether options name anything to remove: the tool's own rule, the same in the form and the API. */
export function namesRedactions(o: {
  terms?: string;
  emails: boolean;
  phones: boolean;
  regex?: string;
  boxes?: RedactionBox[];
}): boolean {
  return Boolean(o.terms?.trim() || o.emails || o.phones || o.regex || o.boxes?.length);
}
