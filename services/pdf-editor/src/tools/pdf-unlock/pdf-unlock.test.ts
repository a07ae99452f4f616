import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus, pdf, useEditor, pages, check, text, encrypted, pool } from '../../../test/helpers.ts';

const { call } = useEditor();

interface ManifestRow {
  path: string;
  user?: string;
  owner?: string;
  pages?: number;
}

function manifest(): ManifestRow[] {
  const [head, ...rows] = readFileSync(join(corpus, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const columns = head!.split('\t');
  return rows.map((row) => {
    const cells = Object.fromEntries(row.split('\t').map((v, i) => [columns[i], v]));
    const pw = Object.fromEntries(
      (cells.passwords ?? '')
        .split(';')
        .filter(Boolean)
        .map((kv: string) => {
          const [k, v] = kv.split(/=(.*)/s);
          return [k, v === '(empty)' ? '' : v];
        }),
    );
    const n = /(\d+) pages/.exec(cells.properties ?? '')?.[1];
    return { path: cells.path!, user: pw.user, owner: pw.owner, pages: n ? Number(n) : undefined };
  });
}

describe('pdf-unlock', () => {
  const rows = manifest().filter((r) => r.path.startsWith('pdf-encrypted/'));

  it('covers the encrypted corpus', () => {
    expect(rows.length).toBeGreaterThanOrEqual(15);
  });

  it('decrypts every encrypted file with its password, and answers the contract without it', async () => {
    await pool(rows, 4, async (row) => {
      const file = join(corpus, row.path);
      const password = row.user !== undefined && row.user !== '?' ? row.user : row.owner!;
      const ok = await call('pdf-unlock', [file], password === '' ? {} : { password });
      expect(ok.status, row.path).toBe(200);
      expect(encrypted(ok.file), row.path).toBe(false);
      expect(spawnSync('qpdf', ['--requires-password', ok.file]).status, row.path).toBe(2);
      expect(check(ok.file), row.path).toBe(0);
      if (row.pages) expect(pages(ok.file), row.path).toBe(row.pages);
      expect(ok.props, row.path).toMatchObject({ wasEncrypted: true });

      const opensWithout = row.user === '';
      const without = await call('pdf-unlock', [file]);
      if (opensWithout) expect(without.status, row.path).toBe(200);
      else expect(without.error?.code, row.path).toBe('password_required');

      const wrong = await call('pdf-unlock', [file], { password: 'not-the-password' });
      expect(wrong.error?.code, row.path).toBe('wrong_password');
    });
  });

  it('opens with the owner password too', async () => {
    const r = await call('pdf-unlock', [join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf')], {
      password: 'owner',
    });
    expect(encrypted(r.file)).toBe(false);
    expect(pages(r.file)).toBe(20);
  });

  it('needs no password for a file with only an owner password', async () => {
    const r = await call('pdf-unlock', [join(corpus, 'pdf-encrypted/qpdf-rc4-128-R3-owner-only.pdf')]);
    expect(r.status).toBe(200);
    expect(encrypted(r.file)).toBe(false);
    expect(pages(r.file)).toBe(30);
  });

  it('returns a valid copy of a file that was not encrypted', async () => {
    const r = await call('pdf-unlock', [pdf('qpdf-11-pages.pdf')]);
    expect(r.props).toMatchObject({ wasEncrypted: false, pages: 11 });
    expect(check(r.file)).toBe(0);
    expect(text(r.file)).toBe(text(pdf('qpdf-11-pages.pdf')));
  });
});
