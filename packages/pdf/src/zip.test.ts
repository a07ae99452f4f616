import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listZip } from '@quire/detect';
import { createZip, extractZip } from './zip.ts';

describe('createZip', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zip-'));
  const small = join(dir, 'small');
  const large = join(dir, 'large');
  writeFileSync(small, 'a small entry');
  writeFileSync(large, randomBytes(3 * 1024 * 1024)); // past what is read at once: streamed
  const names = ['first.pdf', 'große Seite 2.pdf', 'third.pdf'];

  it('writes entries in the order added, byte for byte, stored or deflated', async () => {
    for (const compress of [false, true]) {
      const path = join(dir, `out-${compress}.zip`);
      const zip = createZip(path, { compress });
      zip.add(small, names[0]!);
      zip.add(large, names[1]!);
      zip.add(small, names[2]!);
      await zip.close();
      expect(await listZip(path)).toEqual(names);
      execFileSync('unzip', ['-tq', path]);
      const files = await extractZip(path, join(dir, `x-${compress}`));
      const digest = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
      expect(files.map(digest)).toEqual([small, large, small].map(digest));
    }
  });

  it('gives up on an archive: adds after it are ignored and the file is closed', async () => {
    const path = join(dir, 'aborted.zip');
    const zip = createZip(path);
    zip.add(large, 'large.bin');
    await zip.abort();
    zip.add(small, 'late.bin');
    const open = execFileSync('ls', ['-l', `/proc/${process.pid}/fd`]).toString();
    expect(open).not.toContain(path);
  });

  it('fails its close when an entry cannot be read', async () => {
    const zip = createZip(join(dir, 'missing.zip'));
    zip.add(join(dir, 'no-such-file'), 'x.pdf');
    await expect(zip.close()).rejects.toThrow();
  });
});
