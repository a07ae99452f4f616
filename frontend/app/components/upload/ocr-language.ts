import type { OcrLanguage } from '@quire/catalog/ocr';
import type { Language } from '../../i18n/languages.ts';
import type { Tool } from '../../lib/tools.ts';

/** The OCR language of each site language: a page read in Spanish reads scans in Spanish by default. */
const ocrLanguageOf: Record<Language, OcrLanguage> = { en: 'eng', es: 'spa', fr: 'fra', hi: 'hin', ar: 'ara' };

/** A tool's fields with its OCR `language` defaulting to the page's language. */
export function withPageLanguage(fields: Tool['options'], language: Language): Tool['options'] {
  return fields.map((f) => (f.name === 'language' ? { ...f, default: ocrLanguageOf[language] } : f));
}
