import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trailerEncrypts } from './trailer.ts';

const corpus = new URL('../../../../shared/corpus/', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'trailer-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const pdfs = ['pdf', 'pdf-encrypted', 'pdf-broken'].flatMap((dir) =>
  readdirSync(join(corpus, dir))
    .filter((name) => name.endsWith('.pdf'))
    .map((name) => join(corpus, dir, name)),
);

/** qpdf's verdict: 2 = not encrypted, 0 or 3 = encrypted (a password needed, or none); others: unreadable. */
function qpdfSays(path: string): boolean | undefined {
  const { status } = spawnSync('qpdf', ['--requires-password', path]);
  return status === 2 ? false : status === 0 || status === 3 ? true : undefined;
}

describe('trailerEncrypts', () => {
  it('agrees with qpdf on every corpus PDF it decides, and decides most of the readable ones', async () => {
    let decided = 0;
    let readable = 0;
    for (const path of pdfs) {
      const ours = await trailerEncrypts(path);
      const theirs = qpdfSays(path);
      // Never "not encrypted" for a file qpdf finds encrypted: that would skip its decryption.
      if (ours === false) expect(theirs, path).not.toBe(true);
      if (ours === true) expect(theirs, path).toBe(true);
      if (theirs !== undefined) readable++;
      if (ours !== undefined && theirs !== undefined) decided++;
    }
    expect(readable).toBeGreaterThan(50);
    // Measured: 78 of 91; those left are damaged files (and two odd encrypted ones), which qpdf judges.
    expect(decided / readable).toBeGreaterThan(0.85);
  });

  it('finds /Encrypt in a table trailer and in a cross-reference stream, and leaves # escapes to qpdf', async () => {
    const plain = join(corpus, 'pdf', 'qpdf-11-pages.pdf');
    const made = (name: string, args: string[]) => {
      const out = join(scratch, name);
      execFileSync('qpdf', [...args, plain, out]);
      return out;
    };
    const table = made('table.pdf', ['--object-streams=disable']);
    const lockedTable = made('locked-table.pdf', ['--object-streams=disable', '--encrypt', 'u', 'o', '256', '--']);
    const stream = made('stream.pdf', ['--object-streams=generate']);
    const lockedStream = made('locked-stream.pdf', ['--object-streams=generate', '--encrypt', 'u', 'o', '256', '--']);
    expect(readFileSync(lockedTable, 'latin1')).toMatch(/trailer\s*<</);
    expect(readFileSync(lockedStream, 'latin1')).toMatch(/\/Type\s*\/XRef/);
    expect(await trailerEncrypts(table)).toBe(false);
    expect(await trailerEncrypts(lockedTable)).toBe(true);
    expect(await trailerEncrypts(stream)).toBe(false);
    expect(await trailerEncrypts(lockedStream)).toBe(true);

    // The same name spelled /#45ncrypt: undecided, never "not encrypted".
    const escaped = join(scratch, 'escaped.pdf');
    const text = readFileSync(lockedTable, 'latin1');
    const at = text.lastIndexOf('/Encrypt');
    writeFileSync(escaped, `${text.slice(0, at)}/#45ncrypt${text.slice(at + '/Encrypt'.length)}`, 'latin1');
    expect(await trailerEncrypts(escaped)).toBeUndefined();
    // An offset that misses, and no startxref at all.
    writeFileSync(join(scratch, 'off.pdf'), text.replace(/startxref\s+\d+/, 'startxref 7'), 'latin1');
    expect(await trailerEncrypts(join(scratch, 'off.pdf'))).toBeUndefined();
    writeFileSync(join(scratch, 'none.pdf'), '%PDF-1.7\n');
    expect(await trailerEncrypts(join(scratch, 'none.pdf'))).toBeUndefined();
  });
});
