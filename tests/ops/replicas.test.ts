/**
 * More than one machine's worth of Quire: two gateways behind nginx, sharing results in Redis and
 * records in PostgreSQL, and two pdf-editor instances. Halfway through 200 jobs one gateway and one
 * pdf-editor are killed. Every job answers either a result that downloads through nginx as the right
 * PDF, or a contract error, and only jobs that were in flight at the kill may fail; usage counts rise
 * by exactly the successful runs.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, type ErrorCode } from '@quire/catalog';
import { startPostgres, type Postgres } from '../../gateway/test/postgres.ts';
import { startRedis, type RedisServer } from '../../gateway/test/redis.ts';
import type { Instance } from '../../scripts/stack.ts';
import { corpusDir } from '../lib/corpus.ts';
import { post } from '../lib/http.ts';
import { pageCount, qpdfCheck } from '../lib/pdf.ts';
import { startScratchStack, type ScratchStack } from '../lib/stack.ts';

const total = 200;
const concurrency = 8;
/** The job before which one gateway and one pdf-editor are killed. */
const half = total / 2;

const pdf = (name: string) => join(corpusDir, 'pdf', name);
const eleven = pdf('qpdf-11-pages.pdf');
const four = pdf('pypdf-pdflatex-4-pages.pdf');
const one = pdf('pypdf-minimal-document.pdf');

interface Job {
  tool: string;
  files: string[];
  fields?: Record<string, string>;
  /** The result's page count, from the inputs'. */
  pages: () => number;
}

const jobKinds: Job[] = [
  { tool: 'rotate-pdf', files: [eleven], fields: { angle: '90' }, pages: () => pageCount(eleven) },
  { tool: 'pdf-merge', files: [four, one, eleven], pages: () => pageCount(four) + pageCount(one) + pageCount(eleven) },
  { tool: 'pdf-compress', files: [four], pages: () => pageCount(four) },
  { tool: 'add-watermark', files: [eleven], fields: { text: 'REPLICA' }, pages: () => pageCount(eleven) },
  { tool: 'pdf-page-remove', files: [four], fields: { pages: '1' }, pages: () => pageCount(four) - 1 },
];

interface Outcome {
  index: number;
  job: Job;
  requestId: string;
  status: number;
  body: Awaited<ReturnType<typeof post>>['body'];
  /** Started before the kill and answered after it began. */
  inFlightAtKill: boolean;
}

let redis: RedisServer | undefined;
let postgres: Postgres | undefined;
let stack: ScratchStack | undefined;

beforeAll(async () => {
  redis = await startRedis();
  postgres = await startPostgres();
  stack = await startScratchStack('replicas', {
    portOffset: 22_000,
    services: ['pdf-editor'],
    replicas: { gateway: 2, 'pdf-editor': 2 },
    authEmulator: false,
    env: {
      REDIS_URL: redis.url,
      DATABASE_URL: postgres.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      JOB_TIMEOUT_MS: '60000',
    },
  });
});

afterAll(async () => {
  await stack?.remove();
  await redis?.close();
  await postgres?.stop();
});

async function usage(): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: postgres!.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tool: string; count: number }>('SELECT tool, count FROM usage');
    return Object.fromEntries(rows.map((r) => [r.tool, Number(r.count)]));
  } finally {
    await client.end();
  }
}

/**
 * SIGKILL to the instance's process group, as a machine that dies; waits until it is gone, so that no
 * job sent after the kill can reach it (the bound is for a fault only).
 */
async function kill(instance: Instance): Promise<void> {
  process.kill(-instance.pid, 'SIGKILL');
  const late = new Promise<'late'>((r) => setTimeout(() => r('late'), 60_000).unref());
  if ((await Promise.race([instance.exited, late])) === 'late') throw new Error(`pid ${instance.pid} outlived SIGKILL`);
}

/** The nginx access log's lines by request id. */
async function accessLog(): Promise<Map<string, { upstream: string; upstreamStatus: string }>> {
  const lines = (await readFile(join(stack!.logDir, 'nginx-access.log'), 'utf8')).trim().split('\n');
  const byId = new Map<string, { upstream: string; upstreamStatus: string }>();
  for (const line of lines) {
    const entry = JSON.parse(line) as { requestId: string; upstream: string; upstreamStatus: string };
    byId.set(entry.requestId, entry);
  }
  return byId;
}

describe('two gateways and two pdf-editors, one of each killed halfway', () => {
  it('answers every job with a downloadable result or a contract error, and counts each success once', async () => {
    const s = stack!;
    const [gatewayToKill, editorToKill] = [s.instances.gateway![1]!, s.instances['pdf-editor']![1]!];
    const before = await usage();

    const outcomes: Outcome[] = [];
    let next = 0;
    let killStarted = false;
    let killed: Promise<void> | undefined;
    const worker = async () => {
      while (next < total) {
        const index = next++;
        if (index >= half) {
          killed ??= (async () => {
            killStarted = true;
            await Promise.all([kill(gatewayToKill), kill(editorToKill)]);
          })();
          await killed;
        }
        const job = jobKinds[index % jobKinds.length]!;
        const requestId = `replicas-${index}`;
        const r = await post(`${s.url}/api/v1/tools/${job.tool}`, job.files, job.fields ?? {}, {
          'X-Request-Id': requestId,
        });
        outcomes.push({ index, job, requestId, ...r, inFlightAtKill: index < half && killStarted });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    expect(outcomes).toHaveLength(total);

    const succeeded = outcomes.filter((o) => o.status === 200);
    const failed = outcomes.filter((o) => o.status !== 200);
    // Every failure is the contract's error, and only a job cut off by the kill fails.
    for (const o of failed) {
      const code = o.body.error?.code as ErrorCode;
      expect(Object.keys(o.body), o.requestId).toEqual(['error']);
      expect(Object.hasOwn(errorCodes, code), `${o.requestId}: ${code}`).toBe(true);
      expect(o.status, o.requestId).toBe(errorCodes[code].status);
      expect(o.body.error!.message, o.requestId).toMatch(/^[^\n]{10,300}$/);
      expect(o.inFlightAtKill, `${o.requestId} failed with ${code} but was not in flight at the kill`).toBe(true);
    }
    expect(failed.length).toBeLessThanOrEqual(concurrency);

    // Every result downloads through nginx, whichever gateway stored it, as the right PDF.
    const r = new Redis(redis!.url);
    try {
      for (const o of succeeded) {
        const name = o.body.download!;
        const res = await fetch(`${s.url}/uploads/${encodeURIComponent(name)}`);
        expect(res.status, o.requestId).toBe(200);
        const path = join(s.runDir, `download-${o.index}.pdf`);
        await writeFile(path, Buffer.from(await res.arrayBuffer()));
        expect([0, 3], `${o.requestId} ${o.job.tool}`).toContain(qpdfCheck(path));
        expect(pageCount(path), `${o.requestId} ${o.job.tool}`).toBe(o.job.pages());
        expect(await r.zscore('quire:results', name), name).not.toBeNull();
      }
    } finally {
      r.disconnect();
    }
    // Results were kept in Redis only: no gateway wrote one to its disk.
    expect(existsSync(join(s.runDir, 'data', 'results'))).toBe(false);

    // Both gateways answered tool calls before the kill; after it, only the one left.
    const log = await accessLog();
    // nginx lists every gateway it tried; the last one answered.
    const upstreams = (from: number, to: number) =>
      new Set(
        outcomes
          .filter((o) => o.index >= from && o.index < to)
          .map((o) => log.get(o.requestId)?.upstream.split(', ').pop()),
      );
    expect(upstreams(0, half).size).toBe(2);
    expect([...upstreams(half, total)]).toEqual([new URL(s.instances.gateway![0]!.url).host]);

    // Usage rose by the successful runs of each tool. A job whose gateway was killed after it counted
    // the run but before it answered is the one way to count more: nginx logs it as cut off (502).
    const after = await usage();
    let extra = 0;
    for (const { tool } of jobKinds) {
      const ok = succeeded.filter((o) => o.job.tool === tool).length;
      const cutOff = failed.filter((o) => o.job.tool === tool && log.get(o.requestId)?.upstreamStatus === '502');
      expect(after[tool]! - before[tool]!, tool).toBeGreaterThanOrEqual(ok);
      expect(after[tool]! - before[tool]!, tool).toBeLessThanOrEqual(ok + cutOff.length);
      extra += after[tool]! - before[tool]! - ok;
    }
    console.log(
      `replicas: ${succeeded.length} of ${total} jobs succeeded, ${extra} counted but cut off; failed in flight at the kill: ${failed
        .map(
          (o) => `${o.job.tool} ${o.status} ${o.body.error?.code} (upstream ${log.get(o.requestId)?.upstreamStatus})`,
        )
        .join(', ')}`,
    );
  });
});
