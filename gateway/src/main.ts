import { createLogger } from '@quire/base';
import { createGatewayApp } from './app.ts';
import { readConfig } from './config.ts';
import { openDatabase } from './db.ts';
import { closeJobBackend, jobBackend } from './jobs/index.ts';
import type { ResultStore } from './results.ts';
import { LocalResultStore } from './results-local.ts';
import { RedisResultStore } from './results-redis.ts';

const log = createLogger('gateway');
const config = readConfig();
const db = await openDatabase(config.database);
// Redis when several gateways share results, else files in the data directory.
const ttlMs = config.resultTtlSeconds * 1000;
const store: ResultStore = config.redisUrl
  ? new RedisResultStore(config.redisUrl, ttlMs, log)
  : new LocalResultStore(config.resultsDir, ttlMs);
await store.init();

// Jobs wait in Redis (QUEUE_REDIS_URL, else REDIS_URL) and survive a restart; without it, in this process.
const jobs = jobBackend(config, log);
const app = createGatewayApp({ config, db, store, log, jobs });
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
  server.close(
    () => void Promise.all([db.destroy(), store.close(), closeJobBackend(jobs)]).finally(() => process.exit(0)),
  );
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
