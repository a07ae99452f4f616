/** The site's languages: what the picker offers and how each is written. */
export const languages = {
  en: { label: 'English', dir: 'ltr' },
  es: { label: 'Español', dir: 'ltr' },
  fr: { label: 'Français', dir: 'ltr' },
  hi: { label: 'हिन्दी', dir: 'ltr' },
  ar: { label: 'العربية', dir: 'rtl' },
} as const;

export type Language = keyof typeof languages;
export const fallbackLanguage: Language = 'en';
/** Where the visitor's choice is kept. */
export const languageStorageKey = 'language';

export function isLanguage(value: string): value is Language {
  return Object.hasOwn(languages, value);
}

// A language tag: letters, then subtags. Anything else (markup, script) is discarded, never used.
const languageTag = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}$/;

/** The site language a detected value names, if it is a sane tag for one of ours. */
export function languageOf(value: string | null | undefined): Language | undefined {
  if (!value || !languageTag.test(value)) return undefined;
  const base = value.slice(0, value.search(/[-_]|$/)).toLowerCase();
  return isLanguage(base) ? base : undefined;
}

/**
 * The spec's detection order: the saved choice, then the browser's languages, then the page's lang
 * attribute; English when none is ours.
 */
export function detectLanguage(saved: string | null, browser: readonly string[], page: string): Language {
  for (const candidate of [saved, ...browser, page]) {
    const language = languageOf(candidate);
    if (language) return language;
  }
  return fallbackLanguage;
}
