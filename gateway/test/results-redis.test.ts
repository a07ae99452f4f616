import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '@quire/base';
import { createGatewayApp } from '../src/app.ts';
import { MemoryDispatch } from '../src/jobs/dispatch.ts';
import { MemoryRecordStore } from '../src/jobs/records.ts';
import { readConfig } from '../src/config.ts';
import { openDatabase } from '../src/db.ts';
import { LocalResultStore } from '../src/results-local.ts';
import { RedisResultStore } from '../src/results-redis.ts';
import { startRedis, type RedisServer } from './redis.ts';
import { standIn } from './stand-in.ts';

let redis: RedisServer;
let dir: string;
/** Opened stores and clients, closed after the tests. */
const open: { close(): unknown }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), 'quire-results-redis-'));
}, 60_000);
afterAll(async () => {
  for (const o of open) await o.close();
  await redis?.close();
  await rm(dir, { recursive: true, force: true });
});

async function store(ttlMs = 60_000): Promise<RedisResultStore> {
  const s = new RedisResultStore(redis.url, ttlMs);
  open.push(s);
  await s.init();
  return s;
}

/** A gateway in-process whose results are in the test's Redis (its jobs' queue in the process: see jobs-redis.test.ts). */
async function gateway(s: RedisResultStore, env: Record<string, string> = {}) {
  const config = readConfig({ DATA_DIR: mkdtempSync(join(dir, 'gw-')), REDIS_URL: redis.url, ...env });
  const db = await openDatabase(config.database);
  open.push({ close: () => db.destroy() });
  const jobs = { records: new MemoryRecordStore(), dispatch: new MemoryDispatch() };
  return createGatewayApp({ config, db, store: s, jobs });
}

/** A client of its own, to look at what the store left in Redis. */
function inspect(): Redis {
  const client = new Redis(redis.url).on('error', () => {});
  open.push({ close: () => client.disconnect() });
  return client;
}

/** Bytes as a stream, in pieces of 64 KB as a service's answer arrives. */
function stream(bytes: Buffer): Readable {
  const pieces = [];
  for (let at = 0; at < bytes.length; at += 65_536) pieces.push(bytes.subarray(at, at + 65_536));
  return Readable.from(pieces.length ? pieces : [bytes]);
}

/** Reads a response's body as bytes. */
function bytesOf(res: request.Response, done: (err: Error | null, body: Buffer) => void): void {
  // supertest hands the raw response (a stream) to a custom parser.
  const stream = res as unknown as NodeJS.ReadableStream;
  const parts: Buffer[] = [];
  stream.on('data', (d: Buffer) => parts.push(d));
  stream.on('end', () => done(null, Buffer.concat(parts)));
}

describe('results in Redis', () => {
  it('keeps a result whole under an unguessable name for its lifetime, for every gateway', async () => {
    const ttlMs = 60_000;
    const [a, b] = [await store(ttlMs), await store(ttlMs)];
    // Over two pieces and a half, so that writing and reading in pieces is exercised.
    const bytes = randomBytes(2.5 * 1024 * 1024);
    const name = await a.saveStream(stream(bytes), 'résumé.pdf');
    expect(name).toMatch(/^[0-9a-f]{32}-résumé\.pdf$/);

    const found = await b.find(name);
    expect(found).toMatchObject({ readableName: 'résumé.pdf', size: bytes.length });
    // Another gateway serves it, with the same headers as a local result.
    const res = await request(await gateway(b))
      .get(`/uploads/${encodeURIComponent(name)}`)
      .buffer(true)
      .parse(bytesOf);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''r%C3%A9sum%C3%A9.pdf");
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);

    const r = inspect();
    const pttl = await r.pttl(`quire:result:${name}`);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(ttlMs);
    expect(await r.keys('quire:partial:*')).toEqual([]);
    expect(Number(await r.zscore('quire:results', name))).toBeGreaterThan(Date.now());
  });

  it('reads any range of a result, across its pieces, as a batch file is read from its zip', async () => {
    const bytes = randomBytes(2.5 * 1024 * 1024);
    const redisStore = await store();
    const local = new LocalResultStore(mkdtempSync(join(dir, 'local-')), 60_000);
    await local.init();
    for (const s of [redisStore, local]) {
      const found = (await s.find(await s.saveStream(stream(bytes), 'results.zip')))!;
      for (const [start, end] of [
        [0, 10],
        [1024 * 1024 - 5, 1024 * 1024 + 5],
        [1_000_000, 2_200_000],
        [bytes.length - 3, bytes.length],
        [7, 7],
      ] as const) {
        const parts: Buffer[] = [];
        for await (const part of found.open({ start, end })) parts.push(part as Buffer);
        expect(Buffer.compare(Buffer.concat(parts), bytes.subarray(start, end)), `${start}-${end}`).toBe(0);
      }
    }
  });

  it('keeps an empty result as an empty file', async () => {
    const s = await store();
    const name = await s.saveStream(stream(Buffer.alloc(0)), 'empty.txt');
    expect(await s.find(name)).toMatchObject({ readableName: 'empty.txt', size: 0 });
    const res = await request(await gateway(s)).get(`/uploads/${name}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('forgets a result when its time is up, and sweeps it from the count', async () => {
    await inspect().flushall();
    const kept = await store(60_000);
    const brief = await store(1);
    const keep = await kept.saveStream(stream(Buffer.from('%PDF-1.4 kept')), 'kept.pdf');
    const gone = await brief.saveStream(stream(Buffer.from('%PDF-1.4 gone')), 'gone.pdf');
    await new Promise((r) => setTimeout(r, 20));
    expect(await brief.find(gone)).toBeUndefined();
    expect((await request(await gateway(kept)).get(`/uploads/${gone}`)).status).toBe(404);
    expect(await kept.find(keep)).toBeDefined();
    expect(await kept.sweep()).toBe(1);
    expect(await inspect().zrange('quire:results', 0, -1)).toEqual([keep]);
  });

  it('looks up only names that are exactly a result name', async () => {
    const s = await store();
    const r = inspect();
    const name = await s.saveStream(stream(Buffer.from('%PDF-1.4')), 'y.pdf');
    await r.set('quire:result:secret', 'secret');
    const lookups = async () => /cmdstat_exists:calls=(\d+)/.exec(await r.info('commandstats'))?.[1];
    const before = await lookups();
    const app = await gateway(s);
    for (const probe of [
      'secret',
      '..%2Fsecret',
      '%2e%2e%2fquire:results',
      name.slice(1),
      name.toUpperCase(),
      `${name.slice(0, 33)}..%2F..%2Fsecret`,
      `${name}%00.txt`,
      `${name}%0d%0aDEL%20x`,
    ]) {
      const res = await request(app).get(`/uploads/${probe}`);
      expect(res.status, probe).toBe(404);
      expect(res.text).not.toContain('secret');
    }
    expect(await lookups()).toBe(before);
    await expect(s.saveStream(stream(Buffer.from('x')), '../x.pdf')).rejects.toThrow(/unsafe/);
  });

  it('answers 503 not_available while Redis is down, and works again when it is back', async () => {
    const s = await store();
    const app = await gateway(s);
    const input = Buffer.from('%PDF-1.4 outage');
    const before = await s.saveStream(stream(input), 'before.pdf');
    await redis.stop();
    try {
      const refused = await s.saveStream(stream(input), 'during.pdf').catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ToolError);
      expect((refused as ToolError).code).toBe('not_available');
      await expect(s.find(before)).rejects.toMatchObject({ code: 'not_available' });
      const res = await request(app).get(`/uploads/${before}`);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: { code: 'not_available', message: expect.stringMatching(/^Results cannot be stored/) },
      });
    } finally {
      await redis.start();
    }
    // The store reconnects by itself; Redis kept nothing, so the old result is gone and new ones work.
    let after: string | undefined;
    for (const deadline = Date.now() + 30_000; !after;) {
      try {
        after = await s.saveStream(stream(input), 'after.pdf');
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const res = await request(app).get(`/uploads/${after}`).buffer(true).parse(bytesOf);
    expect((res.body as Buffer).toString()).toBe('%PDF-1.4 outage');
    expect((await request(app).get(`/uploads/${before}`)).status).toBe(404);
  });

  it("takes a service's answer as it arrives, whole, and nothing of one cut off", async () => {
    const s = await store();
    const r = inspect();
    const answer = randomBytes(2.5 * 1024 * 1024 + 7);
    const good = await standIn({ answer });
    const cut = await standIn({ answer, fault: 'cut' });
    open.push(good, cut);
    const pdf = new URL('../../../shared/corpus/pdf/qpdf-11-pages.pdf', import.meta.url).pathname;

    const app = await gateway(s, { PDF_EDITOR_URL: good.url });
    const res = await request(app).post('/api/v1/tools/pdf-compress').attach('file', pdf);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const got = await request(app)
      .get(`/uploads/${encodeURIComponent(res.body.download)}`)
      .buffer(true)
      .parse(bytesOf);
    expect(Buffer.compare(got.body as Buffer, answer)).toBe(0);
    expect(await r.pttl(`quire:result:${res.body.download}`)).toBeGreaterThan(0);
    expect(await r.keys('quire:partial:*')).toEqual([]);

    const results = await r.keys('quire:result:*');
    const failed = await request(await gateway(s, { PDF_EDITOR_URL: cut.url }))
      .post('/api/v1/tools/pdf-compress')
      .attach('file', pdf);
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('not_available');
    expect(await r.keys('quire:partial:*')).toEqual([]);
    expect((await r.keys('quire:result:*')).sort()).toEqual(results.sort());
  });

  it('refuses to start when Redis does not answer, without the URL in the message', async () => {
    const s = new RedisResultStore('redis://:hunter2@127.0.0.1:9', 1000);
    const err = (await s.init().catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^Redis \(REDIS_URL\) did not answer/);
    expect(err.message).not.toContain('hunter2');
    await s.close();
  });
});
