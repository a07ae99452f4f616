import type { ToolId } from '@quire/catalog';
import type { ErrorCode } from '@quire/catalog/errors';
import { errorMessages } from 'virtual:quire/error-messages';
import { tools } from '../lib/tools.ts';
import { en } from './en.ts';
import type { account } from './en/account.ts';
import type { auth } from './en/auth.ts';
import type { blog } from './en/blog.ts';
import type { contact } from './en/contact.ts';
import type { faq } from './en/faq.ts';
import type { privacy } from './en/privacy.ts';
import type { terms } from './en/terms.ts';
import type { workflow } from './en/workflow.ts';
import type { planner } from './en/planner.ts';

/** The shape every language fills: the same keys as English, any text. */
type Copy<T> = { [K in keyof T]: T[K] extends string ? string : Copy<T[K]> };
/** The copy of pages that carry their own English (see `addEnglish`). */
type PageCopy = {
  account: typeof account;
  auth: typeof auth;
  blog: typeof blog;
  contact: typeof contact;
  faq: typeof faq;
  privacy: typeof privacy;
  terms: typeof terms;
  workflow: typeof workflow;
  planner: typeof planner;
};
/** A tool's name and description, and the common words it is searched by (comma-separated). */
export type ToolCopy = Record<ToolId, { name: string; description: string; keywords?: string }>;
export type Dictionary = Copy<typeof en & PageCopy> & { tools: ToolCopy; errors: Record<ErrorCode, string> };
/**
 * Another language: every key English has, but a tool's copy and the option labels, which may wait for a
 * translator. A new tool arrives in English alone; `translate` shows English where a language has no entry.
 */
export type Translation = Omit<Dictionary, 'tools' | 'options'> & {
  tools: Partial<ToolCopy>;
  options: Partial<Dictionary['options']>;
};

/** English as far as it is loaded: every page's copy, and the pages' own copy once their code is in. */
export const english: Omit<Dictionary, keyof PageCopy> & Partial<PageCopy> = {
  ...en,
  tools: Object.fromEntries(
    tools.map((t) => [t.id, { name: t.name, description: t.description, keywords: t.keywords.join(', ') }]),
  ) as ToolCopy,
  errors: errorMessages,
};

/**
 * Adds a page's own English copy, from the module that holds it (`en/*.ts`), which the page's code
 * imports: a page's script carries its own copy and the shared copy, never the other pages'.
 */
export function addEnglish<T>(section: keyof PageCopy, copy: T): T {
  Object.assign(english, { [section]: copy });
  return copy;
}
