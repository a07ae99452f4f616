import { once } from 'node:events';
import { openAsBlob, readdirSync, readFileSync } from 'node:fs';
import { appendFile, copyFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { exec } from '@quire/base';
import { VerificationError } from '@quire/pdf';
import { createServiceApp, type ToolRun } from './service.ts';

const corpus = new URL('../../../../shared/corpus/', import.meta.url).pathname;
const pdf = join(corpus, 'pdf/pypdf-minimal-document.pdf');

/**
 * A tool that takes its time in a real child process, then hands back its input unchanged. It says
 * when it has started and when its work ended, so that a test waits for the one and measures from the other.
 */
function slowCopy() {
  let started!: () => void;
  const probe = { started: new Promise<void>((r) => (started = r)), endedAt: 0 };
  const run: ToolRun = async (ctx) => {
    started();
    await exec('sleep', ['2'], { timeoutMs: 60_000, signal: ctx.signal });
    const out = join(ctx.workdir, 'out.pdf');
    await copyFile(ctx.inputs[0]!.path, out);
    probe.endedAt = performance.now();
    return { path: out };
  };
  return { run, probe };
}

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

function app(env: Record<string, string>, run = slowCopy().run) {
  Object.assign(process.env, env);
  return createServiceApp({ name: 'pdf-editor', tools: { 'rotate-pdf': run } });
}

/** A tool that hands back its input, its own check taking a second and failing when told to; `ended` says when it has. */
function checkedCopy(fails: boolean) {
  const check = { ended: false };
  const run: ToolRun = async (ctx) => {
    const out = join(ctx.workdir, 'out.pdf');
    await copyFile(ctx.inputs[0]!.path, out);
    const checking = exec('sleep', ['1'], { timeoutMs: 60_000, signal: ctx.signal }).then(() => {
      check.ended = true;
      if (fails) throw new VerificationError('looks', 'made to fail');
    });
    return { path: out, checking };
  };
  return { run, check };
}

/**
 * rotate-pdf called over node:http on a service listening on `port`, with `headers`: the answer as it
 * begins, and the informational answers told before it.
 */
async function rawCall(port: number, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', await openAsBlob(pdf), 'in.pdf');
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const told: string[] = [];
  const req = httpRequest({ port, path: '/tools/rotate-pdf', method: 'POST' });
  req.setHeader('content-type', encoded.headers.get('content-type')!);
  for (const [name, value] of Object.entries(headers)) req.setHeader(name, value);
  req.on('information', (info) => told.push(`${info.statusCode} ${info.headers['x-quire-pages-done']}`));
  req.end(Buffer.from(await encoded.arrayBuffer()));
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  return { res, told };
}

/** The port a server listens on, once it does. */
async function portOf(server: Server): Promise<number> {
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe('the kit over HTTP', () => {
  it('answers busy with Retry-After when the queue is full', async () => {
    const { run, probe } = slowCopy();
    const a = app({ QUEUE_CONCURRENCY: '1', QUEUE_MAX_WAITING: '0' }, run);
    const first = request(a)
      .post('/tools/rotate-pdf')
      .attach('file', pdf)
      .then((r) => r);
    // The first job holds the only place once its tool runs.
    await probe.started;
    const second = await request(a).post('/tools/rotate-pdf').attach('file', pdf);
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe('busy');
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    const done = await first;
    const answeredAt = performance.now();
    expect(done.status).toBe(200);
    expect(JSON.parse(done.headers['x-quire-properties']!).checks).toEqual(['opens', 'pages', 'text', 'pixels']);
    // The tool's two seconds and its check's time apart, as Server-Timing says them.
    const timing = Object.fromEntries(
      done.headers['server-timing']!.split(', ').map((m) => [m.split(';')[0], Number(m.split('dur=')[1])]),
    );
    expect(timing.tool).toBeGreaterThanOrEqual(2000);
    expect(timing.verify).toBeGreaterThan(0);
    // The check ran between the end of the tool's work and the answer: the tool's two seconds are not in it.
    expect(timing.verify).toBeLessThanOrEqual(answeredAt - probe.endedAt + 0.1);
  });

  it('stops a job that runs past its time with timeout', async () => {
    const a = app({ JOB_TIMEOUT_MS: '300' });
    const res = await request(a).post('/tools/rotate-pdf').attach('file', pdf);
    expect(res.status).toBe(504);
    expect(res.body.error.code).toBe('timeout');
  });

  it("gives a queued job's call the time it asks for, up to the deployment's maximum, and tells the tool", async () => {
    let given = 0;
    const { run } = slowCopy();
    const timed: ToolRun = async (ctx) => {
      given = ctx.timeMs;
      return run(ctx);
    };
    // The usual 300 ms would stop the tool's two seconds; a job that has ten seconds left asks for them.
    const a = app({ JOB_TIMEOUT_MS: '300', JOBS_MAX_SECONDS: '3600' }, timed);
    const long = await request(a).post('/tools/rotate-pdf').set('X-Quire-Time-Ms', '10000').attach('file', pdf);
    expect(long.status).toBe(200);
    expect(given).toBe(10_000);
    // Asking for more than the maximum gets the maximum; asking for nonsense gets the usual limit.
    const capped = app({ JOB_TIMEOUT_MS: '300', JOBS_MAX_SECONDS: '1' }, timed);
    const over = await request(capped).post('/tools/rotate-pdf').set('X-Quire-Time-Ms', '99999999').attach('file', pdf);
    expect(over.body.error.code).toBe('timeout');
    expect(given).toBe(1000);
    const odd = await request(a).post('/tools/rotate-pdf').set('X-Quire-Time-Ms', '-5').attach('file', pdf);
    expect(odd.body.error.code).toBe('timeout');
    expect(given).toBe(300);
  });

  it('tells the pages a tool has done as 102 Processing before the answer, which a caller may pass over', async () => {
    const counting: ToolRun = async (ctx) => {
      for (const n of [1, 2, 3]) ctx.progress?.(n);
      const out = join(ctx.workdir, 'out.pdf');
      await copyFile(ctx.inputs[0]!.path, out);
      return { path: out };
    };
    const server = app({}, counting).listen(0);
    try {
      const { res, told } = await rawCall(await portOf(server));
      const body = Buffer.concat(await res.toArray());
      expect(res.statusCode).toBe(200);
      expect(body).toEqual(readFileSync(pdf));
      expect(told).toEqual(['102 1', '102 2', '102 3']);
      // supertest, as most clients, passes over them to the answer.
      const plain = await request(app({}, counting)).post('/tools/rotate-pdf').attach('file', pdf);
      expect(plain.status).toBe(200);
    } finally {
      server.close();
    }
  });

  it('sends a result to a caller that takes trailers while it is checked, the verdict after it', async () => {
    const call = async (fails: boolean) => {
      const { run, check } = checkedCopy(fails);
      const server = app({}, run).listen(0);
      try {
        const { res } = await rawCall(await portOf(server), { te: 'trailers' });
        const checkedBeforeAnswer = check.ended;
        const body = Buffer.concat(await res.toArray());
        const verdict = JSON.parse(res.trailers['x-quire-verdict']!) as Record<string, unknown>;
        return { res, body, verdict, checkedBeforeAnswer };
      } finally {
        server.close();
      }
    };
    const passed = await call(false);
    expect(passed.res.statusCode).toBe(200);
    // The answer began before the check had ended; its properties then had no checks, the verdict has them.
    expect(passed.checkedBeforeAnswer).toBe(false);
    expect(JSON.parse(String(passed.res.headers['x-quire-properties'])).checks).toBeUndefined();
    expect(passed.body).toEqual(readFileSync(pdf));
    expect(passed.verdict.checks).toEqual(['opens', 'pages', 'text', 'pixels']);
    expect((passed.verdict.timing as { verify: number }).verify).toBeGreaterThan(0);
    const failed = await call(true);
    expect(failed.checkedBeforeAnswer).toBe(false);
    expect(failed.verdict).toEqual({ error: { code: 'internal', message: expect.any(String) } });
    // Any other caller gets the result only once it has passed, as before.
    const plain = await request(app({}, checkedCopy(true).run))
      .post('/tools/rotate-pdf')
      .attach('file', pdf);
    expect(plain.status).toBe(500);
    expect(plain.body.error.code).toBe('internal');
    expect(plain.headers['x-quire-properties']).toBeUndefined();
  });

  it('closes a result sent ahead of its verdict when the caller leaves halfway', async () => {
    // A result far larger than the socket's buffers, so that its sending waits on a caller who never reads.
    const big: ToolRun = async (ctx) => {
      const out = join(ctx.workdir, 'out.pdf');
      await copyFile(ctx.inputs[0]!.path, out);
      await appendFile(out, Buffer.alloc(32 * 1024 * 1024));
      const checking = exec('sleep', ['1'], { timeoutMs: 60_000, signal: ctx.signal }).then(() => undefined);
      return { path: out, checking };
    };
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const server = app({}, big).listen(0);
    try {
      const port = await portOf(server);
      // Programs are started by a helper process kept open from its first use: it is started first.
      await exec('true', [], { timeoutMs: 10_000 });
      const before = openFiles();
      const { res } = await rawCall(port, { te: 'trailers' });
      expect(res.statusCode).toBe(200);
      res.destroy();
      let left = openFiles();
      for (let i = 0; i < 100 && left > before; i++) {
        await new Promise((r) => setTimeout(r, 50));
        left = openFiles();
      }
      expect(left).toBeLessThanOrEqual(before);
    } finally {
      server.close();
    }
  });

  it('answers unknown tools and metrics', async () => {
    const a = app({});
    const res = await request(a).post('/tools/pdf-merge').attach('file', pdf);
    expect(res.body.error.code).toBe('unknown_tool');
    const metrics = await request(a).get('/prometheus/metrics');
    expect(metrics.text).toContain('quire_requests_total');
    expect(metrics.text).toContain('quire_verification_failures_total');
  });

  it("offers a result only once the tool's own checks still under way have passed, and never one that failed them", async () => {
    const good = checkedCopy(false);
    const passed = await request(app({}, good.run)).post('/tools/rotate-pdf').attach('file', pdf);
    expect(passed.status).toBe(200);
    expect(good.check.ended).toBe(true);
    expect(JSON.parse(passed.headers['x-quire-properties']!).checks).toEqual(['opens', 'pages', 'text', 'pixels']);
    const bad = checkedCopy(true);
    const failed = await request(app({}, bad.run)).post('/tools/rotate-pdf').attach('file', pdf);
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('internal');
    expect(bad.check.ended).toBe(true);
  });
});
