import { useSyncExternalStore } from 'react';
import { english, type Translation } from './dictionary.ts';
import { fallbackLanguage, languages, type Language } from './languages.ts';

/**
 * The site's translations: one dictionary per language, a `{{name}}` interpolation, and the current
 * language as a tiny store React subscribes to. Small on purpose: a tool page's script budget is tight.
 */

/** Other languages load only when chosen, so a page carries English alone. */
const loaders: Record<Exclude<Language, 'en'>, () => Promise<Translation>> = {
  es: () => import('./es.ts').then((m) => m.es),
  fr: () => import('./fr.ts').then((m) => m.fr),
  hi: () => import('./hi.ts').then((m) => m.hi),
  ar: () => import('./ar.ts').then((m) => m.ar),
};

const loaded: Partial<Record<Language, Translation | typeof english>> = { en: english };
// Pages are prerendered in English and hydrate in English; the visitor's language follows at once.
let current: Language = fallbackLanguage;
const listeners = new Set<() => void>();

function lookup(dictionary: object, key: string): string | undefined {
  let node: unknown = dictionary;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * The text for a key in a language (English when missing there; the key itself when unknown), with
 * `{{name}}` replaced by values. React escapes what it renders; no translation is ever set as HTML.
 */
export function translate(language: Language, key: string, values: Record<string, string | number> = {}): string {
  const text = lookup(loaded[language] ?? english, key) ?? lookup(english, key) ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** Counts switches: a language whose dictionary arrives after a later choice is dropped. */
let switches = 0;

export async function switchLanguage(language: Language): Promise<void> {
  const switchNumber = ++switches;
  if (language !== 'en') loaded[language] ??= await loaders[language]();
  if (switchNumber !== switches) return;
  current = language;
  document.documentElement.lang = language;
  document.documentElement.dir = languages[language].dir;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current language; English while prerendering and hydrating. */
export function useLanguage(): Language {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => fallbackLanguage,
  );
}
