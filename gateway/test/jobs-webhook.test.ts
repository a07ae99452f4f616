import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signBody } from '../src/jobs/webhook.ts';
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
