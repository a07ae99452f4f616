import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Response } from 'express';
import { fileKinds, kindOfExtension } from '@quire/catalog';

/** 128 random bits in hex, a dash, then a readable name: nothing else is ever a stored result. */
const namePattern = /^[0-9a-f]{32}-[\p{L}\p{N}_-][\p{L}\p{N}._-]{0,119}$/u;

export interface StoredResult {
  path: string;
  readableName: string;
  size: number;
}

/** Results on local disk, each downloadable under an unguessable name until its time is up. */
export class ResultStore {
  constructor(
    readonly dir: string,
    readonly ttlMs: number,
  ) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Copies a finished file in; the returned name is what the client downloads by. */
  async save(from: string, readableName: string): Promise<string> {
    const name = `${randomBytes(16).toString('hex')}-${readableName}`;
    if (!namePattern.test(name)) throw new Error(`unsafe result name ${JSON.stringify(readableName)}`);
    await copyFile(from, join(this.dir, name));
    return name;
  }

  async find(name: string): Promise<StoredResult | undefined> {
    if (!namePattern.test(name)) return undefined;
    const path = join(this.dir, name);
    try {
      const s = await stat(path);
      if (!s.isFile() || Date.now() - s.mtimeMs > this.ttlMs) return undefined;
      return { path, readableName: name.slice(33), size: s.size };
    } catch {
      return undefined;
    }
  }

  /** Deletes what has expired; returns how many files remain. */
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
}

/** Sends a result as an attachment with its readable name and the type its extension says. */
export function sendResult(res: Response, result: StoredResult): void {
  const ext = result.readableName.includes('.') ? result.readableName.split('.').pop()! : '';
  const kind = kindOfExtension(ext);
  const ascii = result.readableName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  res.setHeader('Content-Type', kind ? fileKinds[kind].mime : 'application/octet-stream');
  res.setHeader('Content-Length', String(result.size));
  res.setHeader(
    'Content-Disposition',
    `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(result.readableName)}`,
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'private, no-store');
  const stream = createReadStream(result.path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
