import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@quire/base';
import { publicLookup } from '@quire/http';
import type { JobRecord } from '../src/jobs/records.ts';
import { signBody, webhooks } from '../src/jobs/webhook.ts';
import { corpus, makeGateway } from './helpers.ts';
import { standIn, type StandIn } from './stand-in.ts';

// The receiver listens on loopback, which the real check refuses (see jobs.test.ts): here it is let through.
vi.mock('@quire/http', async (original) => ({
  ...(await original<typeof import('@quire/http')>()),
  checkPublicUrl: async (raw: string) => new URL(raw),
}));

const pdf = join(corpus, 'pdf/qpdf-11-pages.pdf');
const secret = 'a deployment secret';

interface Call {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe("a job's webhook", () => {
  let service: StandIn;
  let receiver: Server;
  let hook: string;
  const calls: Call[] = [];
  let heard: () => void = () => {};
  beforeAll(async () => {
    service = await standIn({ answer: Buffer.from('%PDF-1.7\n%%EOF\n') });
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        calls.push({ headers: req.headers, body });
        res.end();
        heard();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  });
  afterAll(async () => {
    await service.close();
    await new Promise((r) => receiver.close(r));
  });

  it('is called once the job ends, with the job as JSON, signed with the deployment secret', async () => {
    const { app } = await makeGateway({ PDF_EDITOR_URL: service.url, JOBS_WEBHOOK_SECRET: secret });
    const called = new Promise<void>((r) => (heard = r));
    const { body } = await request(app)
      .post('/api/v1/jobs?tool=pdf-compress')
      .attach('file', pdf)
      .field('webhook', hook);
    expect(body.state).toBe('queued');
    await called;
    const call = calls.at(-1)!;
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers['x-quire-job']).toBe(body.id);
    expect(call.headers['x-quire-signature']).toBe(signBody(secret, call.body));
    const job = JSON.parse(call.body) as { id: string; state: string; result: { download: string }; spec?: unknown };
    expect(job).toMatchObject({ id: body.id, state: 'done' });
    expect(job.result.download).toBeTruthy();
    expect(job.spec).toBeUndefined();
  });

  it('is called when the job is cancelled, with a secret of its own when none is set', async () => {
    const slow = await standIn({
      answer: Buffer.from('%PDF-1.7\n'),
      onRequest: () => new Promise((r) => setTimeout(r, 2000)),
    });
    try {
      const { app } = await makeGateway({ PDF_EDITOR_URL: slow.url });
      const called = new Promise<void>((r) => (heard = r));
      const { body } = await request(app)
        .post('/api/v1/jobs?tool=pdf-compress')
        .attach('file', pdf)
        .field('webhook', hook);
      await request(app).delete(`/api/v1/jobs/${body.id}`);
      await called;
      const call = calls.at(-1)!;
      expect(JSON.parse(call.body)).toMatchObject({ id: body.id, state: 'cancelled' });
      expect(call.headers['x-quire-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(call.headers['x-quire-signature']).not.toBe(signBody(secret, call.body));
    } finally {
      await slow.close();
    }
  });
});

describe("a webhook's receiver that fails", () => {
  const record = {
    id: 'a-job-id-of-enough-length',
    state: 'done',
    tool: 'pdf-compress',
    steps: ['pdf-compress'],
    createdAt: new Date().toISOString(),
    progress: { files: { done: 1, total: 1 } },
    spec: {},
  } as unknown as JobRecord;
  const log = createLogger('test');
  log.silent = true;

  /** A receiver answering each call with the next status of `answers`; resolves its calls' bodies after `count`. */
  async function receiver(answers: number[], count: number) {
    const bodies: string[] = [];
    let done: (b: string[]) => void = () => {};
    const finished = new Promise<string[]>((r) => (done = r));
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.statusCode = answers[bodies.length - 1] ?? 200;
        res.end();
        if (bodies.length === count) done(bodies);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    return { url, bodies, finished, close: () => new Promise((r) => server.close(r)) };
  }

  it('is tried again while it answers 503, with the same signed body, until it takes the call', async () => {
    const r = await receiver([503, 503, 200], 3);
    try {
      webhooks(async () => secret, log, [20, 20, 20]).notify({ ...record, spec: { webhook: r.url } } as JobRecord);
      const bodies = await r.finished;
      expect(new Set(bodies).size).toBe(1);
      expect(JSON.parse(bodies[0]!)).toMatchObject({ id: record.id, state: 'done' });
      await new Promise((ok) => setTimeout(ok, 100));
      expect(r.bodies).toHaveLength(3);
    } finally {
      await r.close();
    }
  });

  it('is not tried again when it refuses the call (400)', async () => {
    const r = await receiver([400], 1);
    try {
      webhooks(async () => secret, log, [20, 20, 20]).notify({ ...record, spec: { webhook: r.url } } as JobRecord);
      await r.finished;
      await new Promise((ok) => setTimeout(ok, 150));
      expect(r.bodies).toHaveLength(1);
    } finally {
      await r.close();
    }
  });

  it('stops after the last delay', async () => {
    const r = await receiver([500, 500, 500, 500, 500], 3);
    try {
      webhooks(async () => secret, log, [20, 20]).notify({ ...record, spec: { webhook: r.url } } as JobRecord);
      await r.finished;
      await new Promise((ok) => setTimeout(ok, 150));
      expect(r.bodies).toHaveLength(3);
    } finally {
      await r.close();
    }
  });
});

describe('publicLookup', () => {
  const resolve = (host: string) =>
    new Promise<string>((ok, fail) =>
      publicLookup(host, {}, (err, address) => (err ? fail(err) : ok(String(address)))),
    );

  it('refuses a name that resolves to loopback, at connection time', async () => {
    await expect(resolve('localhost')).rejects.toThrow(/not a public address/);
  });
});
