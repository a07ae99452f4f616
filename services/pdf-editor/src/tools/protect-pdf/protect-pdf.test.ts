import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import winston from 'winston';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { corpus, pdf, text, useEditor } from '../../../test/helpers.ts';

// Every log line, down to debug, is looked at for the passwords.
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'debug';
});

const { call } = useEditor();
const source = pdf('qpdf-11-pages.pdf');
const userPassword = 'Üser pässword 1';
const ownerPassword = 'the owner, 2';

/** qpdf's account of a result's encryption, opened with `password` (through the command line: a test's own). */
function encryption(file: string, password: string): string {
  return execFileSync('qpdf', [`--password=${password}`, '--show-encryption', file]).toString();
}

function npages(file: string, password: string): number {
  return Number(execFileSync('qpdf', [`--password=${password}`, '--show-npages', file]).toString());
}

/** qpdf --requires-password: 0 a password is needed (none or a wrong one given), 2 not encrypted, 3 opens. */
function requires(file: string, password?: string): number | null {
  return spawnSync('qpdf', [...(password === undefined ? [] : [`--password=${password}`]), '--requires-password', file])
    .status;
}

const logged: string[] = [];
beforeAll(() => {
  const transport = winston.transports.Console.prototype as unknown as {
    log: (this: unknown, info: unknown, next: () => void) => void;
  };
  const write = transport.log;
  vi.spyOn(transport, 'log').mockImplementation(function (this: unknown, info: unknown, next: () => void) {
    logged.push(JSON.stringify(info));
    write.call(this, info, next);
  });
});

afterAll(() => {
  // Everything the service logged in these calls, successes and refusals alike, holds no password.
  expect(logged.length).toBeGreaterThan(0);
  for (const secret of [userPassword, ownerPassword, 'new-secret'])
    expect(logged.filter((line) => line.includes(secret))).toEqual([]);
});

describe('protect-pdf', () => {
  it('locks a PDF with AES-256: it needs the password, and with it every page and word is there', async () => {
    const r = await call('protect-pdf', [source], { userPassword });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(requires(r.file)).toBe(0);
    expect(requires(r.file, 'not it')).toBe(0);
    expect(requires(r.file, userPassword)).toBe(3);
    const shown = encryption(r.file, userPassword);
    expect(shown).toMatch(/^R = 6$/m);
    expect(shown).toMatch(/^file encryption method: AESv3$/m);
    // No owner password given: a random one no one holds, so the user password is not the owner's.
    expect(shown).toMatch(/^Supplied password is user password$/m);
    expect(shown).not.toMatch(/owner password/);
    expect(shown).toMatch(/^print high resolution: allowed$/m);
    expect(npages(r.file, userPassword)).toBe(11);
    expect(text(r.file, undefined, userPassword)).toBe(text(source));
    expect(r.props).toMatchObject({
      pages: 11,
      encryption: 'AES-256',
      ownerPassword: 'random',
      wasEncrypted: false,
      permissions: { print: true, copy: true, modify: true, annotate: true, fillForms: true },
      checks: ['encrypted', 'permissions', 'opens', 'pages', 'text', 'pixels'],
    });
    // Neither the answer nor the file holds the password itself.
    expect(JSON.stringify(r.props)).not.toContain(userPassword);
    expect(readFileSync(r.file).includes(Buffer.from(userPassword))).toBe(false);
  });

  it('grants exactly the permissions asked for, and the owner password opens it as owner', async () => {
    const r = await call('protect-pdf', [source], {
      userPassword,
      ownerPassword,
      allowPrint: 'false',
      allowCopy: 'false',
      allowAnnotate: 'false',
    });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    const shown = encryption(r.file, userPassword);
    expect(shown).toMatch(/^Supplied password is user password$/m);
    for (const line of [
      'print low resolution',
      'print high resolution',
      'extract for any purpose',
      'modify annotations',
    ])
      expect(shown).toContain(`${line}: not allowed`);
    for (const line of ['modify forms', 'modify other', 'modify document assembly'])
      expect(shown).toContain(`${line}: allowed`);
    expect(encryption(r.file, ownerPassword)).toMatch(/^Supplied password is owner password$/m);
    expect(r.props).toMatchObject({
      ownerPassword: 'given',
      permissions: { print: false, copy: false, modify: true, annotate: false, fillForms: true },
    });
    const locked = await call('protect-pdf', [source], { userPassword, allowModify: 'false' });
    expect(encryption(locked.file, userPassword)).toContain('modify other: not allowed');
    expect(encryption(locked.file, userPassword)).toContain('modify document assembly: not allowed');
  });

  it('opens an encrypted input with `password` and locks it with the new one instead', async () => {
    const input = join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf');
    expect((await call('protect-pdf', [input], { userPassword: 'new-secret' })).error?.code).toBe('password_required');
    const wrong = await call('protect-pdf', [input], { password: 'nope', userPassword: 'new-secret' });
    expect(wrong.error?.code).toBe('wrong_password');
    const r = await call('protect-pdf', [input], { password: 'user', userPassword: 'new-secret' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(requires(r.file, 'user')).toBe(0); // the old password no longer opens it
    expect(requires(r.file, 'new-secret')).toBe(3);
    expect(npages(r.file, 'new-secret')).toBe(20);
    expect(r.props).toMatchObject({ pages: 20, wasEncrypted: true });
  });

  it('refuses a missing, empty or unusable password, and permissions the standard cannot keep, naming the option', async () => {
    for (const fields of [{}, { userPassword: '' }] as Record<string, string>[]) {
      const r = await call('protect-pdf', [source], fields);
      expect(r.status).toBe(400);
      expect(r.error).toEqual({
        code: 'invalid_option',
        message: 'The option "userPassword" is required.',
        details: { option: 'userPassword' },
      });
    }
    const lines = await call('protect-pdf', [source], { userPassword: 'two\nlines' });
    expect(lines.error?.message).toMatch(/"userPassword".*line breaks/);
    const long = await call('protect-pdf', [source], { userPassword: 'ü'.repeat(64) });
    expect(long.error?.message).toMatch(/"userPassword".*127 bytes/);
    const forms = await call('protect-pdf', [source], { userPassword, allowFillForms: 'false' });
    expect(forms.error?.message).toMatch(/"allowFillForms"/);
    const same = await call('protect-pdf', [source], { userPassword, ownerPassword: userPassword, allowCopy: 'false' });
    expect(same.error?.message).toMatch(/"ownerPassword".*differ/);
    // The refusals do not repeat the password either.
    for (const r of [lines, long, same]) expect(r.error?.message).not.toContain(userPassword);
  });
});
