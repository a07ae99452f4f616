import type { FileKind } from './kinds.ts';
import { optionFields, type OptionField } from './forms.ts';
import type { Category } from './tool-definition.ts';
import { takesPassword, tools } from './tools.ts';

/**
 * A tool as the web site needs it: plain data, no schemas. The site's build turns the catalog into
 * these, so pages carry the catalog's facts without its validation library.
 */
export interface SiteTool {
  id: string;
  aliases: readonly string[];
  keywords: readonly string[];
  name: string;
  description: string;
  icon: string;
  category: Category;
  usage: number;
  input: { kinds: readonly FileKind[]; min: number; max: number } | { url: true };
  /** Takes a `password` for protected inputs (see takesPassword). */
  password: boolean;
  /** Asks for the password before the first run, not only once the server asked (see Tool.protectedInput). */
  passwordFirst: boolean;
  /** May take minutes on one file (it reads every page by OCR): even one file runs as a job, its pages told as they go. */
  longRuns: boolean;
  options: OptionField[];
}

export function siteTools(): SiteTool[] {
  return tools.map((t) => ({
    id: t.id,
    aliases: t.aliases,
    keywords: t.keywords,
    name: t.name,
    description: t.description,
    icon: t.icon,
    category: t.category,
    usage: t.usage,
    input: t.input,
    password: takesPassword(t),
    passwordFirst: takesPassword(t) && t.protectedInput === true,
    longRuns: t.ocr === 'always',
    options: optionFields(t),
  }));
}
