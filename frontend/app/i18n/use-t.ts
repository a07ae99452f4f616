import type { Dictionary } from './dictionary.ts';
import { translate, useLanguage } from './index.ts';

/** Every dotted key path that ends at a string in the dictionary. */
type Paths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Paths<T[K], `${P}${K}.`>;
}[keyof T & string];
export type CopyKey = Paths<Dictionary>;

/** The translate function for the current language, with keys checked against the dictionary at build time. */
export function useT() {
  const language = useLanguage();
  return (key: CopyKey, values?: Record<string, string | number>) => translate(language, key, values);
}

/** The current language, for formatting numbers and dates. */
export function useLanguageCode(): string {
  return useLanguage();
}

/** The key of a tool's translated name, description or search keywords. */
export function toolKey(id: string, field: 'name' | 'description' | 'keywords'): CopyKey {
  return `tools.${id}.${field}` as CopyKey;
}
