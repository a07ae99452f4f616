import { describe, expect, it } from 'vitest';
import { detectLanguage, languageOf } from './languages.ts';

describe('language detection', () => {
  it('follows the spec order: saved choice, browser languages, page attribute', () => {
    expect(detectLanguage('fr', ['es-ES', 'en'], 'en')).toBe('fr');
    expect(detectLanguage(null, ['de-DE', 'es-MX', 'fr'], 'en')).toBe('es');
    expect(detectLanguage(null, ['de', 'it'], 'ar')).toBe('ar');
    expect(detectLanguage(null, [], 'ja')).toBe('en');
  });

  it('reads region and script subtags and any case', () => {
    expect(languageOf('HI-in')).toBe('hi');
    expect(languageOf('ar_EG')).toBe('ar');
    expect(languageOf('zh-Hant-TW')).toBeUndefined();
  });

  it('discards values that look like markup or script, whatever follows', () => {
    for (const hostile of [
      '<script>alert(1)</script>',
      'en"><img src=x onerror=alert(1)>',
      'javascript:alert(1)',
      'es;',
      'fr fr',
    ]) {
      expect(languageOf(hostile)).toBeUndefined();
    }
    expect(detectLanguage('<script>es</script>', ['fr'], 'en')).toBe('fr');
  });
});
