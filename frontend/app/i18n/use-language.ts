import { useEffect } from 'react';
import { switchLanguage } from './index.ts';
import { detectLanguage, languageStorageKey, type Language } from './languages.ts';

function savedLanguage(): string | null {
  try {
    return localStorage.getItem(languageStorageKey);
  } catch {
    return null;
  }
}

/** Picks and remembers a language (the choice is cached in local storage). */
export async function chooseLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(languageStorageKey, language);
  } catch {
    // Private modes may refuse storage; the choice then lasts for this page.
  }
  await switchLanguage(language);
}

/** After hydration, switches to the visitor's language: saved choice, browser languages, page attribute. */
export function useVisitorLanguage(): void {
  useEffect(() => {
    const language = detectLanguage(savedLanguage(), navigator.languages ?? [], document.documentElement.lang);
    void chooseLanguage(language);
  }, []);
}
