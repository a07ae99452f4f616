import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createZip } from './zip.ts';
import { openZipEntry, type RangeSource } from './zip-entry.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'zip-entry-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts).toString();
}

async function zipOf(entries: Record<string, string>, compress = false): Promise<RangeSource> {
  const path = join(dir, 'out.zip');
  const zip = createZip(path, { compress });
  for (const [name, body] of Object.entries(entries)) {
    const file = join(dir, `in-${Object.keys(entries).indexOf(name)}`);
    writeFileSync(file, body);
    zip.add(file, name);
  }
  await zip.close();
  const size = readFileSync(path).length;
  return { size, read: (start, end) => createReadStream(path, { start, end: end - 1 }) };
}

describe('openZipEntry', () => {
  it('reads the one entry named, stored or deflated, by ranges of the archive', async () => {
    for (const compress of [false, true]) {
      const source = await zipOf(
        { 'a.pdf': 'first file', 'b.pdf': 'second '.repeat(500), 'report.json': '{}' },
        compress,
      );
      const found = await openZipEntry(source, 'b.pdf');
      expect(found?.size).toBe(3500);
      expect(await text(found!.stream)).toBe('second '.repeat(500));
      expect(await text((await openZipEntry(source, 'a.pdf'))!.stream)).toBe('first file');
    }
  });

  it('finds nothing under a name the zip does not hold, however it is spelled', async () => {
    const source = await zipOf({ 'a.pdf': 'x' });
    expect(await openZipEntry(source, 'A.pdf')).toBeUndefined();
    expect(await openZipEntry(source, '../a.pdf')).toBeUndefined();
  });
});
