import { z } from 'zod';
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

export const boolField = (fallback: boolean) =>
  z
    .enum(['true', 'false'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true');

export const imagePageSize = z.enum(['fit', 'a4', 'letter']).default('fit');
export const printPageSize = z.enum(['a4', 'letter']).default('a4');

export const printOptions = z.object({ pageSize: printPageSize, landscape: boolField(false) });

export const noOptions = z.object({});
