import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isResultName, newResultName, readableNameOf, type ResultStore, type StoredResult } from './results.ts';

/** Results as files in one directory, expired by their modification time. */
export class LocalResultStore implements ResultStore {
  constructor(
    readonly dir: string,
    readonly ttlMs: number,
  ) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  async save(from: string, readableName: string): Promise<string> {
    const name = newResultName(readableName);
    // Made again when it went away under a running gateway (a cleanup of the data directory).
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await copyFile(from, join(this.dir, name));
    return name;
  }

  async find(name: string): Promise<StoredResult | undefined> {
    if (!isResultName(name)) return undefined;
    const path = join(this.dir, name);
    try {
      const s = await stat(path);
      if (!s.isFile() || Date.now() - s.mtimeMs > this.ttlMs) return undefined;
      return { readableName: readableNameOf(name), size: s.size, open: () => createReadStream(path) };
    } catch {
      return undefined;
    }
  }

  async sweep(): Promise<number> {
    let left = 0;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const path = join(this.dir, name);
      const s = await stat(path).catch(() => undefined);
      if (!s) continue;
      if (Date.now() - s.mtimeMs > this.ttlMs) await rm(path, { force: true });
      else left++;
    }
    return left;
  }

  async close(): Promise<void> {}
}
