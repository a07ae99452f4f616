import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auth } from '../i18n/en/auth.ts';
import { switchLanguage, translate } from '../i18n/index.ts';
import type { Language } from '../i18n/languages.ts';
import { authProblem } from './auth-problems.ts';

const codes = [
  'auth/user-not-found',
  'auth/wrong-password',
  'auth/invalid-credential',
  'auth/weak-password',
  'auth/email-already-in-use',
  'auth/invalid-email',
  'auth/too-many-requests',
];

beforeAll(async () => {
  vi.stubGlobal('document', { documentElement: {} });
  for (const language of ['es', 'fr', 'hi', 'ar'] as const) await switchLanguage(language);
});
afterAll(() => vi.unstubAllGlobals());

describe('sign-in problems', () => {
  it('give each common provider code its own plain sentence, and any other code a general one', () => {
    const keys = codes.map((code) => authProblem({ code, message: `Firebase: Error (${code}).` }));
    expect(new Set(keys).size).toBe(codes.length);
    for (const key of keys) expect(auth.problems[key]).not.toMatch(/Firebase|auth\//);
    expect(authProblem({ code: 'auth/operation-not-allowed' })).toBe('other');
    expect(authProblem(new Error('no code'))).toBe('other');
    expect(authProblem(null)).toBe('other');
  });

  it.each(['es', 'fr', 'hi', 'ar'] as Language[])('are said in %s', (language) => {
    for (const code of codes) {
      const key = `auth.problems.${authProblem({ code })}`;
      const text = translate(language, key);
      expect(text, key).not.toBe(translate('en', key));
      expect(text, key).not.toMatch(/auth\.|Firebase/);
    }
  });
});
