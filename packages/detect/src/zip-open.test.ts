import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type yauzl from 'yauzl';
import { listZip } from './zip-entries.ts';
import { openZip } from './zip-open.ts';

/** A zip made by Python's zipfile (stored or deflated), with an archive comment when given. */
function makeZip(dir: string, files: Record<string, string>, { deflate = false, comment = '' } = {}): string {
  const zip = join(dir, `z-${Object.keys(files).length}-${deflate}-${comment.length}.zip`);
  const script = [
    'import sys, json, zipfile',
    'files = json.loads(sys.argv[2])',
    `method = zipfile.ZIP_DEFLATED if ${deflate ? 'True' : 'False'} else zipfile.ZIP_STORED`,
    'with zipfile.ZipFile(sys.argv[1], "w", method) as z:',
    '    for name, text in files.items(): z.writestr(name, text)',
    '    z.comment = sys.argv[3].encode()',
  ].join('\n');
  execFileSync('/usr/bin/python3', ['-c', script, zip, JSON.stringify(files), comment]);
  return zip;
}

/** Each entry's name and text, read through openZip. */
async function readAll(path: string): Promise<Map<string, string>> {
  const zip = await openZip(path);
  return new Promise((resolve, reject) => {
    const found = new Map<string, string>();
    zip.on('error', reject);
    zip.on('end', () => resolve(found));
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err ?? new Error('no stream'));
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          found.set(entry.fileName, Buffer.concat(chunks).toString());
          zip.readEntry();
        });
      }),
    );
    zip.readEntry();
  });
}

describe('openZip', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zip-open-'));
  const many = Object.fromEntries(
    Array.from({ length: 1500 }, (_, i) => [`part-${i + 1}.txt`, `page ${i + 1} `.repeat(i % 7)]),
  );

  it('lists and reads every entry of a large zip, stored or deflated, with or without a comment', async () => {
    for (const options of [{}, { deflate: true }, { comment: 'made for a test '.repeat(100) }]) {
      const zip = makeZip(dir, many, options);
      expect(await listZip(zip)).toEqual(Object.keys(many));
      expect(Object.fromEntries(await readAll(zip))).toEqual(many);
    }
    expect(await listZip(makeZip(dir, { 'empty.txt': '' }))).toEqual(['empty.txt']);
  });

  it('refuses what is not a zip, and a zip cut short, without leaving the file open', async () => {
    const notZip = join(dir, 'not.zip');
    writeFileSync(notZip, 'just text');
    await expect(openZip(notZip)).rejects.toThrow();
    const whole = readFileSync(makeZip(dir, many));
    const cut = join(dir, 'cut.zip');
    writeFileSync(cut, whole.subarray(0, whole.length - 5000));
    await expect(listZip(cut)).rejects.toThrow();
    const before = execFileSync('ls', [`/proc/${process.pid}/fd`])
      .toString()
      .split('\n').length;
    for (let i = 0; i < 20; i++) await listZip(cut).catch(() => undefined);
    expect(
      execFileSync('ls', [`/proc/${process.pid}/fd`])
        .toString()
        .split('\n').length,
    ).toBeLessThanOrEqual(before);
  });
});
