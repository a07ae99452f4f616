import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Language } from '../../i18n/languages.ts';
import { switchLanguage, translate } from '../../i18n/index.ts';
import type { useT } from '../../i18n/use-t.ts';
import { errorMessage, isolate } from './outcome-message.ts';

const languages: Language[] = ['en', 'es', 'fr', 'hi', 'ar'];
const tFor = (language: Language) =>
  ((key: string, values?: Record<string, string | number>) => translate(language, key, values)) as ReturnType<
    typeof useT
  >;

beforeAll(async () => {
  // Switching sets the page's lang and dir; this runs without a page.
  vi.stubGlobal('document', { documentElement: {} });
  for (const language of languages) await switchLanguage(language);
});
afterAll(() => vi.unstubAllGlobals());

const png = { code: 'unsupported_type', details: { file: 'report.png', kind: 'png', tool: 'pdf-merge' } };
const empty = { code: 'empty_file', details: { file: 'empty.pdf' } };
const pages = { code: 'invalid_option', details: { option: 'pages', pages: 11 } };

describe('the English sentences', () => {
  const t = tFor('en');
  it('name the file at fault, what it is and what the tool takes', () => {
    expect(errorMessage(t, png)).toBe(
      `${isolate('report.png')} is of type ${isolate('PNG')}; Merge PDF takes ${isolate('PDF')}.`,
    );
    expect(errorMessage(t, { code: 'unsupported_type', details: { file: 'x.bin', tool: 'pdf-compress' } })).toBe(
      `${isolate('x.bin')} is not a file Compress PDF can read; it takes ${isolate('PDF')}.`,
    );
  });
  it('say an empty file is empty', () => {
    expect(errorMessage(t, empty)).toBe(`${isolate('empty.pdf')} is empty (0 bytes). Please choose the file again.`);
  });
  it("name the option by its label and the document's page count", () => {
    expect(errorMessage(t, pages)).toBe('Pages: this document has 11 pages; use page numbers from 1 to 11.');
    // The label's hint in brackets is left out.
    expect(errorMessage(t, { code: 'invalid_option', details: { option: 'ranges', pages: 1 } })).toBe(
      'Page ranges: this document has only 1 page.',
    );
  });
  it("name a workflow's failing step", () => {
    expect(errorMessage(t, { code: 'damaged_input', details: { step: 2, tool: 'pdf-compress' } })).toBe(
      'Step 2 (Compress PDF): The file is damaged and could not be read or repaired.',
    );
  });
  it("fall back to the code's own sentence without details, and keep the server's for an unnamed option", () => {
    expect(errorMessage(t, { code: 'unsupported_type' })).toBe('This type of file is not supported by this tool.');
    expect(errorMessage(t, { code: 'invalid_option', message: 'The option "box" is needed.' })).toBe(
      'An option has a value that is not allowed. The option "box" is needed.',
    );
  });
});

describe.each(languages.filter((l) => l !== 'en'))('the %s sentences', (language) => {
  const t = tFor(language);
  const english = tFor('en');

  it('are translated, and keep the file name, the kinds and the page count', () => {
    for (const outcome of [png, empty, pages]) {
      const text = errorMessage(t, outcome);
      expect(text).not.toBe(errorMessage(english, outcome));
      expect(text).not.toMatch(/\{\{|problems\.|errors\./);
    }
    expect(errorMessage(t, png)).toContain(isolate('report.png'));
    expect(errorMessage(t, png)).toContain(isolate('PNG'));
    expect(errorMessage(t, png)).toContain(t('tools.pdf-merge.name'));
    expect(errorMessage(t, empty)).toContain(isolate('empty.pdf'));
    expect(errorMessage(t, pages)).toContain('11');
    expect(errorMessage(t, pages)).toContain(t('options.pages'));
  });
});

describe('Arabic', () => {
  it('isolates the Latin file name, so that the sentence keeps its order and punctuation', () => {
    const text = errorMessage(tFor('ar'), empty);
    // The name sits whole between an isolate's marks, and the sentence ends with its own full stop.
    expect(text).toMatch(/\u2068empty\.pdf\u2069/);
    expect(text.startsWith('الملف')).toBe(true);
    expect(text.endsWith('.')).toBe(true);
  });
});
