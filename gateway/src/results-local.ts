import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

  async saveStream(from: Readable, readableName: string): Promise<string> {
    let partial: string | undefined;
    try {
      const name = newResultName(readableName);
      // Made again when it went away under a running gateway (a cleanup of the data directory).
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      // Written under a name that is never a result's, then renamed: a result is found whole or not at all.
      partial = join(this.dir, `.partial-${name}`);
      await pipeline(from, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, join(this.dir, name));
      return name;
    } catch (err) {
      from.destroy();
      if (partial) await rm(partial, { force: true });
      throw err;
    }
  }

  async find(name: string): Promise<StoredResult | undefined> {
    if (!isResultName(name)) return undefined;
    const path = join(this.dir, name);
    try {
      const s = await stat(path);
      if (!s.isFile() || Date.now() - s.mtimeMs > this.ttlMs) return undefined;
      const open: StoredResult['open'] = (range) =>
        !range
          ? createReadStream(path)
          : range.end > range.start
            ? createReadStream(path, { start: range.start, end: range.end - 1 })
            : Readable.from([]);
      return { readableName: readableNameOf(name), size: s.size, open };
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
      // A partial one that old was left by a gateway that stopped while writing it.
      if (Date.now() - s.mtimeMs > this.ttlMs) await rm(path, { force: true });
      else if (isResultName(name)) left++;
    }
    return left;
  }

  async close(): Promise<void> {}
}
