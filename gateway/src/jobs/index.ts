import { join } from 'node:path';
import type { RequestHandler } from 'express';
import type { Logger } from '@quire/base';
import type { GatewayConfig } from '../config.ts';
import type { Db } from '../db.ts';
import { watchJobQueue, type GatewayMetrics } from '../metrics.ts';
import type { ResultStore } from '../results.ts';
import type { ServiceClient } from '../service-client.ts';
import { jobsApi } from './api.ts';
import { BullDispatch, MemoryDispatch, type Dispatch } from './dispatch.ts';
import { MemoryRecordStore, RedisRecordStore, type RecordStore } from './records.ts';
import { webhookSecret, webhooks } from './webhook.ts';
import { endJob, jobRunner, sweepJobFolders } from './worker.ts';

/** Where jobs wait and are recorded: Redis when the deployment has one for its queue, else this process. */
export interface JobBackend {
  records: RecordStore;
  dispatch: Dispatch;
}

export function jobBackend(config: GatewayConfig, log: Logger): JobBackend {
  const url = config.jobs.redisUrl;
  if (!url) return { records: new MemoryRecordStore(), dispatch: new MemoryDispatch() };
  return { records: new RedisRecordStore(url), dispatch: new BullDispatch(url, log) };
}

export async function closeJobBackend(backend: JobBackend): Promise<void> {
  await backend.dispatch.close();
  await backend.records.close();
}

export interface JobsDeps {
  config: GatewayConfig;
  backend: JobBackend;
  db: Db;
  store: ResultStore;
  client: ServiceClient;
  metrics: GatewayMetrics;
  log: Logger;
  guards: RequestHandler[];
}

/** How often a worker process removes the folders of jobs that no worker took. */
const sweepEveryMs = 10 * 60_000;

/** A live job's record outlasts the longest a job may wait and run. */
const liveTtlMs = (config: GatewayConfig) => 24 * 3600_000 + config.jobs.maxMs;

/**
 * Jobs in this process as its role says: the API (`gateway`), the workers (`worker`), or both. Returns
 * the API's routes, which a worker alone does not serve.
 */
export function setUpJobs(deps: JobsDeps): RequestHandler[] {
  const { config, backend, store, log } = deps;
  let secret: Promise<string> | undefined;
  const hooks = webhooks(
    () => (secret ??= webhookSecret(config.jobs.webhookSecret, join(config.dataDir, 'webhook-secret'))),
    log,
  );
  watchJobQueue(deps.metrics, () => backend.dispatch.depth());
  const shared = { records: backend.records, store, webhooks: hooks, liveTtlMs: liveTtlMs(config) };
  if (config.jobs.role !== 'gateway') {
    const sweep = () => void sweepJobFolders(config.jobs.dir, shared.liveTtlMs);
    setInterval(sweep, sweepEveryMs).unref();
    const run = jobRunner({ ...deps, ...shared, jobsDir: config.jobs.dir });
    backend.dispatch.work(run, config.jobs.concurrency, (id, reason) => {
      log.warn('a job was given up by the queue', { job: id.slice(0, 6), reason });
      const message = /stalled/i.test(reason)
        ? 'The worker running this job stopped, twice: it was not tried again.'
        : 'The job could not be run.';
      void endJob(shared, id, { state: 'failed', error: { code: 'internal', message } }).catch(() => {});
    });
  }
  return [
    jobsApi({
      ...shared,
      config: config.jobs,
      dispatch: backend.dispatch,
      stepTimeoutMs: config.serviceTimeoutMs,
      guards: deps.guards,
    }),
  ];
}
