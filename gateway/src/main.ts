import { createLogger } from '@quire/service-kit';
import { createGatewayApp } from './app.ts';
import { readConfig } from './config.ts';
import { openDatabase } from './db.ts';
import { ResultStore } from './results.ts';

const log = createLogger('gateway');
const config = readConfig();
const db = await openDatabase(config.database);
const store = new ResultStore(config.resultsDir, config.resultTtlSeconds * 1000);
await store.init();

const app = createGatewayApp({ config, db, store, log });
const server = app.listen(config.port, config.host, () =>
  log.info(`listening on ${config.host}:${config.port}`, { services: Object.keys(config.serviceUrls) }),
);
server.requestTimeout = 0; // tool calls have their own limits

// Expired results go away even when nobody asks for metrics.
const sweeper = setInterval(
  () => void store.sweep().catch((err) => log.error('sweep failed', { err: String(err) })),
  Math.min(60_000, config.resultTtlSeconds * 500),
);

const stop = () => {
  clearInterval(sweeper);
  server.close(() => void db.destroy().finally(() => process.exit(0)));
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
