import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expect } from 'vitest';
import { createGatewayApp } from '../src/app.ts';
import { readConfig, type GatewayConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db.ts';
import type { JobBackend } from '../src/jobs/index.ts';
import { LocalResultStore } from '../src/results-local.ts';

export const corpus = new URL('../../../shared/corpus/', import.meta.url).pathname;

/**
 * A gateway in-process on a fresh data directory; settings as the environment would give them. Its jobs'
 * queue and records are `jobs(config)` when given (to close them after), else as the config says.
 */
export async function makeGateway(env: Record<string, string> = {}, jobs?: (config: GatewayConfig) => JobBackend) {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-gw-'));
  const config: GatewayConfig = readConfig({ DATA_DIR: dataDir, ...env });
  const db: Db = await openDatabase(config.database);
  const store = new LocalResultStore(config.resultsDir, config.resultTtlSeconds * 1000);
  await store.init();
  const backend = jobs?.(config);
  const app = createGatewayApp({ config, db, store, ...(backend && { jobs: backend }) });
  return { app, db, store, config, dataDir, jobs: backend };
}

/** A stored result downloaded through the gateway, as bytes (its status checked). */
export async function download(app: Parameters<typeof request>[0], name: string): Promise<Buffer> {
  const res = await getBytes(app, `/uploads/${encodeURIComponent(name)}`);
  expect(res.status).toBe(200);
  return res.body as Buffer;
}

/** A GET whose body is kept as the bytes that came. */
export function getBytes(app: Parameters<typeof request>[0], path: string) {
  return request(app)
    .get(path)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
}
