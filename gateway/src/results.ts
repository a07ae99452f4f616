import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Response } from 'express';
import { fileKinds, kindOfExtension } from '@quire/catalog';

/** 128 random bits in hex, a dash, then a readable name: nothing else is ever a stored result. */
const namePattern = /^[0-9a-f]{32}-[\p{L}\p{N}_-][\p{L}\p{N}._-]{0,119}$/u;

/** A new unguessable name that ends with the readable one; refuses a readable name that is not safe. */
export function newResultName(readableName: string): string {
  const name = `${randomBytes(16).toString('hex')}-${readableName}`;
  if (!namePattern.test(name)) throw new Error(`unsafe result name ${JSON.stringify(readableName)}`);
  return name;
}

/** Checked before any lookup, so that no other name ever reaches the disk or Redis. */
export function isResultName(name: string): boolean {
  return namePattern.test(name);
}

/** The readable name a result's name ends with. */
export function readableNameOf(name: string): string {
  return name.slice(33);
}

export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredResult {
  readableName: string;
  size: number;
  /** The result's bytes, or those from `start` up to `end` (excluded), read as they are sent. */
  open(range?: ByteRange): Readable;
}

/**
 * Where results wait to be downloaded until their time is up: files in a local directory, or Redis
 * when several gateways share them (main.ts chooses by REDIS_URL).
 */
export interface ResultStore {
  readonly ttlMs: number;
  init(): Promise<void>;
  /**
   * Takes a result as it is read, under a new name, returned once the result is whole: the name the
   * client downloads by. Nothing is left of a result whose stream fails, and it is never found half.
   */
  saveStream(from: Readable, readableName: string): Promise<string>;
  find(name: string): Promise<StoredResult | undefined>;
  /** Deletes what has expired; returns how many results remain. */
  sweep(): Promise<number>;
  close(): Promise<void>;
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
  const stream = result.open();
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
