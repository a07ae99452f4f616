import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@quire/base';
import { BullDispatch } from '../src/jobs/dispatch.ts';
import { closeJobBackend, jobBackend, type JobBackend } from '../src/jobs/index.ts';
import { RedisRecordStore } from '../src/jobs/records.ts';
import { corpus, download, makeGateway } from './helpers.ts';
import { startRedis, type RedisServer } from './redis.ts';
import { standIn, type StandIn } from './stand-in.ts';

const pdf = join(corpus, 'pdf/qpdf-11-pages.pdf');
const answer = Buffer.from('%PDF-1.7\n% a stand-in result\n%%EOF\n');
const log = createLogger('gateway-test');

type App = Awaited<ReturnType<typeof makeGateway>>['app'];

async function until(app: App, id: string, states: string[]): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i++) {
    const res = await request(app).get(`/api/v1/jobs/${id}`);
    if (states.includes(res.body.state as string)) return res.body as Record<string, unknown>;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} never reached ${states.join(' or ')}`);
}

describe('jobs on BullMQ and Redis', () => {
  let redis: RedisServer;
  let service: StandIn;
  const backends: JobBackend[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    service = await standIn({ answer });
  });
  beforeEach(async () => {
    const client = new Redis(redis.url);
    await client.flushall();
    client.disconnect();
  });
  afterEach(async () => {
    await Promise.all(backends.splice(0).map(closeJobBackend));
  });
  afterAll(async () => {
    await service.close();
    await redis.close();
  });

  /** Gateways and workers that share one data directory (job folders, results) and one Redis. */
  const shared = () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-jobs-shared-'));
    return {
      QUEUE_REDIS_URL: redis.url,
      PDF_EDITOR_URL: service.url,
      JOBS_DIR: join(dir, 'jobs'),
      RESULTS_DIR: join(dir, 'results'),
    };
  };
  const keep = (backend: JobBackend) => (backends.push(backend), backend);

  it('keeps a job queued by a gateway that stops, for a worker started later', async () => {
    const env = shared();
    const gateway = await makeGateway({ ...env, JOBS_ROLE: 'gateway' }, (config) => jobBackend(config, log));
    const { body } = await request(gateway.app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf);
    await new Promise((r) => setTimeout(r, 300));
    expect((await request(gateway.app).get(`/api/v1/jobs/${body.id}`)).body.state).toBe('queued');
    await closeJobBackend(gateway.jobs!);

    const worker = await makeGateway({ ...env, JOBS_ROLE: 'worker' }, (config) => keep(jobBackend(config, log)));
    // A worker alone answers no API call.
    expect((await request(worker.app).get(`/api/v1/jobs/${body.id}`)).status).toBe(404);
    const again = await makeGateway({ ...env, JOBS_ROLE: 'gateway' }, (config) => keep(jobBackend(config, log)));
    const done = await until(again.app, body.id as string, ['done', 'failed']);
    expect(done.state).toBe('done');
    expect(await download(again.app, (done.result as { download: string }).download)).toEqual(answer);
  });

  it('takes a job again once when its worker dies, and fails it with a clear reason the second time', async () => {
    const env = shared();
    const timing = { lockDuration: 1000, stalledInterval: 500 };
    const gateway = await makeGateway({ ...env, JOBS_ROLE: 'gateway' }, (config) =>
      keep({
        records: new RedisRecordStore(config.jobs.redisUrl!),
        dispatch: new BullDispatch(redis.url, log, timing),
      }),
    );
    const { body } = await request(gateway.app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf);
    // Two workers in turn take the job and die with it (stopped at once, their hold left to lapse).
    for (let death = 1; death <= 2; death++) {
      let took!: () => void;
      const taken = new Promise<void>((r) => (took = r));
      const doomed = new Worker(
        'quire-jobs',
        () => {
          took();
          return new Promise(() => {});
        },
        { connection: { url: redis.url, maxRetriesPerRequest: null }, prefix: 'quire', maxStalledCount: 1, ...timing },
      );
      await taken;
      await doomed.close(true);
    }
    // A worker that lives sees the job's second stall and gives it up.
    const worker = await makeGateway({ ...env, JOBS_ROLE: 'worker' }, () =>
      keep({ records: new RedisRecordStore(redis.url), dispatch: new BullDispatch(redis.url, log, timing) }),
    );
    expect(worker.app).toBeTruthy();
    const failed = await until(gateway.app, body.id as string, ['done', 'failed']);
    expect(failed).toMatchObject({ state: 'failed', error: { code: 'internal' } });
    expect((failed.error as { message: string }).message).toContain('stopped, twice');
  });

  it('cancels from one gateway a job that a worker elsewhere runs', async () => {
    const slow = await standIn({ answer, onRequest: () => new Promise((r) => setTimeout(r, 5000)) });
    try {
      const env = { ...shared(), PDF_EDITOR_URL: slow.url };
      const gateway = await makeGateway({ ...env, JOBS_ROLE: 'gateway' }, (c) => keep(jobBackend(c, log)));
      await makeGateway({ ...env, JOBS_ROLE: 'worker' }, (c) => keep(jobBackend(c, log)));
      const { body } = await request(gateway.app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf);
      await until(gateway.app, body.id as string, ['running']);
      const began = Date.now();
      expect((await request(gateway.app).delete(`/api/v1/jobs/${body.id}`)).body.state).toBe('cancelled');
      // The worker's call to the service ends at once, not when the service would have answered.
      const metrics = async () => (await request(gateway.app).get('/metrics')).text;
      for (let i = 0; i < 100 && !/quire_jobs_queue_depth\{state="active"[^}]*\} 0\n/.test(await metrics()); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(await metrics()).toMatch(/quire_jobs_queue_depth\{state="active"[^}]*\} 0\n/);
      expect(Date.now() - began).toBeLessThan(4000);
    } finally {
      await slow.close();
    }
  });
});
