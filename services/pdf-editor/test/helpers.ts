import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import yauzl from 'yauzl';
import { afterAll, beforeAll, expect } from 'vitest';
import { callTool } from '@quire/service-kit/testing';

export const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
export const pdf = (name: string) => join(corpus, 'pdf', name);

/** A scratch folder for the tests' own files (results, made inputs), apart from the service's work root. */
export const scratch = mkdtempSync(join(tmpdir(), 'pdf-editor-test-'));
const workRoot = mkdtempSync(join(tmpdir(), 'pdf-editor-work-'));
process.env.WORK_DIR = workRoot;
// Refused inputs are logged with their cause as warnings; the tests look at the answers instead.
process.env.LOG_LEVEL ??= 'error';

export interface Reply {
  status: number;
  /** The result written to a scratch file (200 only). */
  file: string;
  props: Record<string, unknown>;
  name: string;
  error?: { code: string; message: string };
}

/**
 * The service in-process for one test file, and a call to one of its tools. After the file's tests,
 * no job may have left anything in the work root.
 */
export function useEditor(): {
  call: (tool: string, files: string[], fields?: Record<string, string>) => Promise<Reply>;
  app: () => Express;
} {
  let app: Express;
  beforeAll(async () => {
    app = (await import('../src/app.ts')).createApp();
  });
  afterAll(async () => {
    // A request's folder goes just after its answer: waited for, within a bound that only a leak reaches.
    for (const end = Date.now() + 30_000; readdirSync(workRoot).length > 0 && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const left = readdirSync(workRoot);
    rmSync(workRoot, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
    expect(left).toEqual([]);
  });
  const call = async (tool: string, files: string[], fields: Record<string, string> = {}): Promise<Reply> => {
    const r = await callTool(app, tool, { files, fields }, scratch);
    return {
      status: r.status,
      file: r.file ?? '',
      props: r.properties,
      name: r.name ?? '',
      ...(r.error ? { error: r.error } : {}),
    };
  };
  return { call, app: () => app };
}

/** The page count; qpdf exits 3 when it had to repair the file on the way. */
export function pages(file: string): number {
  const r = spawnSync('qpdf', ['--show-npages', file]);
  expect([0, 3], r.stderr.toString()).toContain(r.status);
  return Number(r.stdout.toString().trim());
}

/** qpdf --check: 0 is clean; 3 is warnings only. */
export function check(file: string): number {
  return spawnSync('qpdf', ['--check', file]).status ?? -1;
}

export function text(file: string, page?: number, password?: string): string {
  const range = page ? ['-f', String(page), '-l', String(page)] : [];
  const pw = password ? ['-upw', password] : [];
  return execFileSync('pdftotext', [...range, ...pw, file, '-']).toString();
}

/** The /Rotate of each page as a viewer applies it. */
export function rotations(file: string): number[] {
  const out = execFileSync('pdfinfo', ['-f', '1', '-l', '9999', file]).toString();
  return [...out.matchAll(/^Page\s+\d+\s+rot:\s+(\d+)/gm)].map((m) => Number(m[1]));
}

export function encrypted(file: string): boolean {
  return !execFileSync('qpdf', ['--show-encryption', file]).toString().includes('File is not encrypted');
}

export function info(file: string): string {
  return execFileSync('pdfinfo', [file]).toString();
}

/** The entries of a zip, extracted to a folder, in archive order. */
export async function unzip(file: string): Promise<{ name: string; path: string }[]> {
  const dir = join(scratch, `${basename(file)}.d`);
  mkdirSync(dir);
  return new Promise((resolve, reject) => {
    const entries: { name: string; path: string }[] = [];
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const path = join(dir, String(entries.length));
            writeFileSync(path, Buffer.concat(chunks));
            entries.push({ name: entry.fileName, path });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Runs `work` over items, `limit` at a time. */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}
