import { describe, expect, it, vi } from 'vitest';
import { ar } from './ar.ts';
import { english, type Translation } from './dictionary.ts';
import { account } from './en/account.ts';
import { auth } from './en/auth.ts';
import { blog } from './en/blog.ts';
import { contact } from './en/contact.ts';
import { faq } from './en/faq.ts';
import { planner } from './en/planner.ts';
import { privacy } from './en/privacy.ts';
import { terms } from './en/terms.ts';
import { workflow } from './en/workflow.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { hi } from './hi.ts';
import { switchLanguage, translate } from './index.ts';

/** Every key path to a string, with its text. */
function entries(node: unknown, prefix = ''): [string, string][] {
  if (typeof node === 'string') return [[prefix, node]];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => entries(v, prefix ? `${prefix}.${k}` : k));
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const leadingEmoji = (text: string) => /^\p{Extended_Pictographic}/u.exec(text)?.[0];

/** All of English: what every page shows and every page's own copy. */
const complete = { ...english, account, auth, blog, contact, faq, planner, privacy, terms, workflow };

describe('English', () => {
  it("holds each page's own copy once the page's code has loaded it", () => {
    expect(english).toEqual(complete);
  });
});

describe.each([
  ['es', es],
  ['fr', fr],
  ['hi', hi],
  ['ar', ar],
] as [string, Translation][])('the %s dictionary', (_name, dictionary) => {
  const source = new Map(entries(complete));
  const translated = new Map(entries(dictionary));
  /** A tool's copy and the option labels may wait for a translator: English shows meanwhile. */
  const mayWait = (key: string) => /^(tools|options)\./.test(key);

  it('has every English key, but copy that may wait, and no other', () => {
    const wanted = [...source.keys()].filter((key) => !mayWait(key) || translated.has(key));
    expect([...translated.keys()].sort()).toEqual(wanted.sort());
  });

  it('translates every text, keeping its placeholders and leading emoji', () => {
    for (const [key, text] of source) {
      if (mayWait(key) && !translated.has(key)) continue;
      const other = translated.get(key) ?? '';
      expect(other.trim(), key).not.toBe('');
      expect(placeholders(other), key).toEqual(placeholders(text));
      expect(leadingEmoji(other), key).toBe(leadingEmoji(text));
    }
    // Really translated: most texts differ from English (names such as "PDF" or "4.9/5" may not).
    const same = [...source].filter(([key, text]) => translated.get(key) === text).length;
    expect(same / source.size).toBeLessThan(0.15);
  });

  it('keeps the search keywords the tool search matches', () => {
    for (const word of ["'merge'", "'jpg'", "'compress'"]) expect(dictionary.nav.searchNotFound).toContain(word);
  });
});

describe('translate', () => {
  it('fills placeholders and falls back to English, then to the key', () => {
    expect(translate('en', 'tool.heading', { label: 'Merge PDF' })).toBe('Convert with Merge PDF');
    expect(translate('es', 'upload.success')).toBe('Success');
    expect(translate('en', 'no.such.key')).toBe('no.such.key');
    expect(translate('en', 'tool.prompt')).toContain('{{label}}');
  });

  it("shows a tool's English copy in a language that has none for it yet", async () => {
    // As a new tool is, before anyone translates it.
    const merge = es.tools['pdf-merge'];
    delete es.tools['pdf-merge'];
    // Switching sets the page's lang and dir; this runs without a page.
    vi.stubGlobal('document', { documentElement: {} });
    try {
      await switchLanguage('es');
      expect(translate('es', 'tools.pdf-merge.name')).toBe('Merge PDF');
      expect(translate('es', 'tools.pdf-split.name')).toBe('Dividir PDF');
    } finally {
      es.tools['pdf-merge'] = merge;
      vi.unstubAllGlobals();
    }
  });
});
