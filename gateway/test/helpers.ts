import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGatewayApp } from '../src/app.ts';
import { readConfig, type GatewayConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db.ts';
import { LocalResultStore } from '../src/results-local.ts';

export const corpus = new URL('../../../shared/corpus/', import.meta.url).pathname;

/** A gateway in-process on a fresh data directory; settings as the environment would give them. */
export async function makeGateway(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-gw-'));
  const config: GatewayConfig = readConfig({ DATA_DIR: dataDir, ...env });
  const db: Db = await openDatabase(config.database);
  const store = new LocalResultStore(config.resultsDir, config.resultTtlSeconds * 1000);
  await store.init();
  const app = createGatewayApp({ config, db, store });
  return { app, db, store, config, dataDir };
}
