import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck, text, words } from '../lib/pdf.ts';

const source = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');
const encryptedInput = join(corpusDir, 'pdf-encrypted', 'qpdf-20-pages-user-owner.pdf');

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

/** qpdf --requires-password: 0 a password is needed (none or a wrong one given), 3 this one opens it. */
const requires = (path: string, password?: string) =>
  spawnSync('qpdf', [...(password === undefined ? [] : [`--password=${password}`]), '--requires-password', path])
    .status;

describe('protect-pdf', () => {
  it('gives back a PDF that opens only with the password, with every page and word, through nginx and the gateway', async () => {
    const { path, res, properties } = await runTool(base, 'protect-pdf', [source], {
      userPassword: 'open sesame',
      allowCopy: 'false',
    });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(requires(path)).toBe(0);
    expect(requires(path, 'open sesame')).toBe(3);
    expect(qpdfCheck(path, 'open sesame')).toBe(0);
    expect(pageCount(path, 'open sesame')).toBe(pageCount(source));
    expect(words(text(path, { password: 'open sesame' }))).toEqual(words(text(source)));
    expect(properties).toMatchObject({
      encryption: 'AES-256',
      permissions: { copy: false, print: true },
      checks: ['encrypted', 'permissions', 'opens', 'pages', 'text', 'pixels'],
    });
    expect(JSON.stringify(properties)).not.toContain('open sesame');
  });

  it('opens a protected input with `password` before locking it with the new one', async () => {
    const { path } = await runTool(base, 'protect-pdf', [encryptedInput], { password: 'user', userPassword: 'next' });
    expect(requires(path, 'user')).toBe(0);
    expect(pageCount(path, 'next')).toBe(20);
    const asked = await post(`${base}/api/v1/tools/protect-pdf`, [encryptedInput], { userPassword: 'next' });
    expect(asked.body.error?.code).toBe('password_required');
  });

  it('refuses a call without the new password, naming the option', async () => {
    const r = await post(`${base}/api/v1/tools/protect-pdf`, [source], { userPassword: '' });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      code: 'invalid_option',
      message: 'The option "userPassword" is required.',
      details: { option: 'userPassword' },
    });
  });
});
