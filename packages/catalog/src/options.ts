import { z } from 'zod';
import { ocrLanguages, type OcrLanguage } from './ocr.ts';
import { pagePlanPattern } from './page-plan.ts';
import { pageRangesPattern } from './ranges.ts';

/**
 * Option schemas shared by several tools. Options arrive as form fields (strings), so numbers are
 * coerced and choices are string enums; the JSON Schema made from them drives forms and OpenAPI.
 */
export const pageRanges = (what: string) =>
  z
    .string()
    .trim()
    .regex(pageRangesPattern, { message: `${what} must be page numbers or ranges, such as 1-3,5,8-` });

/** A page plan (page-plan.ts): the new document's pages in order, turned or blank. */
export const pagePlan = z
  .string()
  .trim()
  .max(2000)
  .regex(pagePlanPattern, {
    message: 'Plan must list pages, ranges, turns and blanks, such as 3,1-2,5r90,blank,2',
  })
  .describe(
    'The new order, comma-separated: page numbers and ranges (1-4, backwards 4-1, to the end 5-), ' +
      'r90, r180 or r270 after one to turn it clockwise, blank for an empty page; pages left out are deleted.',
  );

export const boolField = (fallback: boolean) =>
  z
    .enum(['true', 'false'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true');

export const imagePageSize = z.enum(['fit', 'a4', 'letter']).default('fit');
export const printPageSize = z.enum(['a4', 'letter']).default('a4');

export const printOptions = z.object({ pageSize: printPageSize, landscape: boolField(false) });

export const noOptions = z.object({});

const ocrLanguagePattern = new RegExp(`^(?:${ocrLanguages.join('|')})(?:\\+(?:${ocrLanguages.join('|')}))*$`);

/** One OCR language or several joined by `+` (eng+fra); an unknown code is named in the error. */
export const ocrLanguage = z
  .string()
  .trim()
  .default('eng')
  .pipe(
    z.string().regex(ocrLanguagePattern, {
      error: (issue) => {
        const codes = String(issue.input).split('+');
        const unknown = codes.filter((c) => !(ocrLanguages as readonly string[]).includes(c));
        const named = unknown.length ? `unknown language ${unknown.map((c) => `"${c}"`).join(', ')}` : 'no language';
        return `${named}; choose from ${ocrLanguages.join(', ')}, several joined by +`;
      },
    }),
  )
  .transform((v) => [...new Set(v.split('+'))] as OcrLanguage[]);

/**
 * OCR in the tools that read text: `auto` reads by OCR the pages that have no text (scans), `off` never;
 * the language is pdf-ocr's.
 */
export const readingOcr = { ocr: z.enum(['auto', 'off']).default('auto'), language: ocrLanguage };

/**
 * A password a PDF is protected with. AES-256 (R6) takes at most 127 bytes of UTF-8; control characters
 * (line breaks, tabs) cannot be typed at a reader's prompt. Marked `format: password`, so that forms and
 * OpenAPI clients hide what is typed.
 */
export const pdfPassword = (description: string) =>
  z
    .string()
    .max(127)
    .refine((v) => new TextEncoder().encode(v).length <= 127, { message: 'it must be at most 127 bytes in UTF-8' })
    .refine((v) => !/\p{Cc}/u.test(v), { message: 'it must not hold line breaks, tabs or other control characters' })
    .meta({ format: 'password', description });

/**
 * Protect PDF's options. `password` is every PDF tool's field for opening an encrypted input, so the new
 * passwords have names of their own, the PDF standard's: the user password opens the file, the owner
 * password may change what the user password allows. Each permission is granted unless turned off.
 */
export const protectOptions = z
  .object({
    userPassword: pdfPassword('The password that will open the PDF'),
    ownerPassword: pdfPassword(
      'The password that may change the permissions; when none is given, a random one no one holds',
    ).optional(),
    allowPrint: boolField(true),
    allowCopy: boolField(true),
    allowModify: boolField(true),
    allowAnnotate: boolField(true),
    allowFillForms: boolField(true),
  })
  .superRefine((o, ctx) => {
    // The standard lets whoever may annotate also fill in forms: the one without the other cannot be kept.
    if (o.allowAnnotate && !o.allowFillForms)
      ctx.addIssue({
        code: 'custom',
        path: ['allowFillForms'],
        message:
          'whoever may add comments may also fill in forms (the PDF standard ties them): allow filling in forms too, or turn off comments',
      });
    const withheld = !(o.allowPrint && o.allowCopy && o.allowModify && o.allowAnnotate && o.allowFillForms);
    if (withheld && o.ownerPassword === o.userPassword)
      ctx.addIssue({
        code: 'custom',
        path: ['ownerPassword'],
        message: 'it must differ from userPassword, or whoever opens the PDF could lift the permissions',
      });
  });

/** A side's margin to crop, in the tool's unit; a margin the page cannot lose is refused by the tool, per page. */
export const cropMargin = z.coerce.number().min(0).max(10000).default(0);
