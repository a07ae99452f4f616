import { once } from 'node:events';
import { existsSync, openAsBlob, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants } from '@quire/catalog';
import { usageStats } from '../src/db.ts';
import { MemoryDispatch } from '../src/jobs/dispatch.ts';
import { MemoryRecordStore, type FileReport, type JobResult, type publicView } from '../src/jobs/records.ts';
import { corpus, download, getBytes, makeGateway } from './helpers.ts';
import { standIn, type StandIn } from './stand-in.ts';

const pdf = join(corpus, 'pdf/qpdf-11-pages.pdf');
const answer = Buffer.from('%PDF-1.7\n% a stand-in result\n%%EOF\n');
const notPdf = join(tmpdir(), 'quire-jobs-test.txt');
writeFileSync(notPdf, 'plain words, no PDF at all\n');

type App = Awaited<ReturnType<typeof makeGateway>>['app'];
/** A job as the API shows it; `spec` only to check that it is not shown. */
type JobView = ReturnType<typeof publicView> & { result: JobResult & { report: FileReport[] }; spec?: unknown };

/** Polls a job until it has ended. */
async function ended(app: App, id: string): Promise<JobView> {
  for (let i = 0; i < 400; i++) {
    const res = await request(app).get(`/api/v1/jobs/${id}`);
    expect(res.status).toBe(200);
    if (['done', 'failed', 'cancelled'].includes(res.body.state)) return res.body as JobView;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${id} did not end`);
}

/** A job's Server-Sent Events, read until the stream ends. */
function eventStream(app: App, id: string) {
  return request(app)
    .get(`/api/v1/jobs/${id}/events`)
    .buffer(true)
    .parse((r, cb) => {
      let text = '';
      r.on('data', (c: Buffer) => (text += c.toString()));
      r.on('end', () => cb(null, text));
    });
}

/** A zip's entries by name. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(entries));
      zip.readEntry();
    });
  });
}

describe('jobs, on the queue of one process', () => {
  let service: StandIn;
  let slow: StandIn;
  beforeAll(async () => {
    service = await standIn({ answer });
    slow = await standIn({ answer, onRequest: () => new Promise((r) => setTimeout(r, 3000)) });
  });
  afterAll(async () => {
    await service.close();
    await slow.close();
  });

  it('answers 202 with an unguessable id at once, then runs the tool and keeps its result', async () => {
    const { app, db, jobs } = await makeGateway({ PDF_EDITOR_URL: service.url }, () => ({
      records: new MemoryRecordStore(),
      dispatch: new MemoryDispatch(),
    }));
    const before = (await usageStats(db))['pdf-compress']!;
    const res = await request(app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf).field('level', 'low');
    expect(res.status).toBe(202);
    expect(res.body.id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(res.headers.location).toBe(`/api/v1/jobs/${res.body.id}`);
    expect(res.body.state).toBe('queued');
    const job = await ended(app, res.body.id);
    expect(job).toMatchObject({ state: 'done', tool: 'pdf-compress', progress: { files: { done: 1, total: 1 } } });
    expect(job.progress.pages).toEqual({ done: 11, total: 11 });
    expect(job.spec).toBeUndefined();
    expect(await download(app, job.result.download)).toEqual(answer);
    expect(service.received.at(-1)!.fields.level).toEqual(['low']);
    // Its fields (a password among them) are not kept once it has ended.
    expect((await jobs!.records.get(job.id))!.spec.fields).toEqual({});
    expect((await usageStats(db))['pdf-compress']).toBe(before + 1);
  });

  it('runs a batch file by file: a refused file is reported, the others are zipped with the report', async () => {
    const { app, db } = await makeGateway({ PDF_EDITOR_URL: service.url });
    const before = (await usageStats(db))['pdf-compress']!;
    const res = await request(app)
      .post('/api/v1/jobs?tool=pdf-compress')
      .attach('file', pdf, 'one.pdf')
      .attach('file', notPdf, 'two.pdf')
      .attach('file', pdf, 'three.pdf');
    expect(res.status).toBe(202);
    const job = await ended(app, res.body.id);
    expect(job.state).toBe('done');
    expect(job.result.report.map((r) => r.outcome)).toEqual(['ok', 'failed', 'ok']);
    expect(job.result.report[1]).toMatchObject({ file: 'two.pdf', error: { code: 'unsupported_type' } });
    const entries = await unzip(await download(app, job.result.download));
    expect([...entries.keys()].sort()).toEqual(['3-résultat.pdf', 'report.json', 'résultat.pdf']);
    expect(entries.get('résultat.pdf')).toEqual(answer);
    expect(JSON.parse(entries.get('report.json')!.toString()).files).toEqual(job.result.report);
    // Each file's state, in the order sent.
    expect(job.progress.perFile).toEqual([
      { file: 'one.pdf', state: 'done', pages: 11 },
      { file: 'two.pdf', state: 'failed', error: job.result.report[1]!.error },
      { file: 'three.pdf', state: 'done', pages: 11 },
    ]);
    // Each file on its own, read from the zip; a failed one gives its error, a file not sent none.
    const third = await getBytes(app, `/api/v1/jobs/${job.id}/files/3`);
    expect(third.status).toBe(200);
    expect(third.body).toEqual(answer);
    expect(third.headers['content-disposition']).toContain("filename*=UTF-8''3-r%C3%A9sultat.pdf");
    const second = await request(app).get(`/api/v1/jobs/${job.id}/files/2`);
    expect(second.body.error.code).toBe('unsupported_type');
    for (const n of ['4', '0', '..%2F1', '1.pdf'])
      expect((await request(app).get(`/api/v1/jobs/${job.id}/files/${n}`)).body.error.code).toBe('not_found');
    // Once per file that succeeded.
    expect((await usageStats(db))['pdf-compress']).toBe(before + 2);
  });

  it('refuses more files than a batch takes, a webhook to a private address, an unknown job', async () => {
    const { app } = await makeGateway({ PDF_EDITOR_URL: service.url });
    let many = request(app).post('/api/v1/jobs?tool=pdf-compress');
    for (let i = 0; i <= constants.batchMaxFiles; i++) many = many.attach('file', pdf);
    const tooMany = await many;
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('too_many_files');
    expect(tooMany.body.error.message).toContain(String(constants.batchMaxFiles));

    const hook = await request(app)
      .post('/api/v1/jobs?tool=pdf-compress')
      .attach('file', pdf)
      .field('webhook', 'http://127.0.0.1:9/hook');
    expect(hook.status).toBe(403);
    expect(hook.body.error.code).toBe('url_blocked');
    expect(hook.body.error.message).toContain('webhook');

    for (const path of ['/api/v1/jobs/AAAAAAAAAAAAAAAAAAAAAAAA', '/api/v1/jobs/nope', '/api/v1/jobs/x/events']) {
      const res = await request(app).get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await request(app).delete('/api/v1/jobs/AAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });

  it('is described in the OpenAPI document', async () => {
    const { app } = await makeGateway();
    const { body } = await request(app).get('/api/v1/openapi.json');
    expect(body.paths['/api/v1/jobs'].post.responses['202']).toBeTruthy();
    expect(Object.keys(body.paths['/api/v1/jobs/{id}'])).toEqual(['get', 'delete']);
    expect(body.paths['/api/v1/jobs/{id}/events'].get).toBeTruthy();
    expect(body.components.schemas.Job.properties.state.enum).toEqual([
      'queued',
      'running',
      'done',
      'failed',
      'cancelled',
    ]);
    expect(body.components.schemas.Error.properties.error.properties.code.enum).toContain('job_cancelled');
  });

  it('cancels a running job: its call to the service ends and it has no result', async () => {
    const { app } = await makeGateway({ PDF_EDITOR_URL: slow.url });
    const { body } = await request(app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf);
    for (let i = 0; i < 100 && (await request(app).get(`/api/v1/jobs/${body.id}`)).body.state !== 'running'; i++)
      await new Promise((r) => setTimeout(r, 20));
    const notYet = await request(app).get(`/api/v1/jobs/${body.id}/result`);
    expect(notYet.status).toBe(409);
    expect(notYet.body.error.code).toBe('job_not_finished');
    const cancelled = await request(app).delete(`/api/v1/jobs/${body.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe('cancelled');
    const result = await request(app).get(`/api/v1/jobs/${body.id}/result`);
    expect(result.status).toBe(410);
    expect(result.body.error.code).toBe('job_cancelled');
    expect((await ended(app, body.id)).state).toBe('cancelled');
  });

  it('cancels a queued job: it leaves the queue and its uploads go, the job ahead goes on', async () => {
    const { app, config } = await makeGateway({ PDF_EDITOR_URL: slow.url, JOBS_CONCURRENCY: '1' });
    const ahead = await request(app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf);
    const queued = await request(app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf);
    expect(existsSync(join(config.jobs.dir, queued.body.id as string))).toBe(true);
    const cancelled = await request(app).delete(`/api/v1/jobs/${queued.body.id}`);
    expect(cancelled.body.state).toBe('cancelled');
    expect(existsSync(join(config.jobs.dir, queued.body.id as string))).toBe(false);
    expect((await ended(app, ahead.body.id as string)).state).toBe('done');
    expect((await request(app).get(`/api/v1/jobs/${queued.body.id}`)).body.state).toBe('cancelled');
  });

  it('bounds the jobs one client has queued or running, with Retry-After', async () => {
    const { app } = await makeGateway({ PDF_EDITOR_URL: slow.url, JOBS_PER_CLIENT: '1' });
    const first = await request(app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf);
    expect(first.status).toBe(202);
    const second = await request(app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf);
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe('busy');
    expect(second.headers['retry-after']).toBe('10');
    await request(app).delete(`/api/v1/jobs/${first.body.id}`);
    expect((await request(app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf)).status).toBe(202);
  });

  it('cancels a job whose client left before hearing of it, so that it holds no place', async () => {
    // Records made slowly: the client leaves after the gateway has read its upload, before it answers.
    let making!: (id: string) => void;
    const made = new Promise<string>((r) => (making = r));
    let created!: () => void;
    const kept = new Promise<void>((r) => (created = r));
    class SlowRecords extends MemoryRecordStore {
      override async create(...args: Parameters<MemoryRecordStore['create']>) {
        making(args[0].id);
        await new Promise((r) => setTimeout(r, 300));
        await super.create(...args);
        created();
      }
    }
    const { app } = await makeGateway({ PDF_EDITOR_URL: slow.url, JOBS_PER_CLIENT: '1' }, () => ({
      records: new SlowRecords(),
      dispatch: new MemoryDispatch(),
    }));
    const server = app.listen(0);
    try {
      await once(server, 'listening');
      const form = new FormData();
      form.append('file', await openAsBlob(pdf), 'in.pdf');
      const encoded = new Request('http://localhost/', { method: 'POST', body: form });
      const body = Buffer.from(await encoded.arrayBuffer());
      const head = [
        'POST /api/v1/jobs?tool=pdf-compress HTTP/1.1',
        'Host: localhost',
        `Content-Type: ${encoded.headers.get('content-type')}`,
        `Content-Length: ${body.length}`,
      ];
      // The whole upload, then gone: as a browser whose Cancel came as the last bytes left.
      const socket = connect((server.address() as AddressInfo).port);
      await once(socket, 'connect');
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      socket.write(body);
      const id = await made;
      socket.destroy();
      await kept;
      // The job made of it is cancelled, and the client's one place is free again (else 429 for 3 s).
      expect((await ended(app, id)).state).toBe('cancelled');
      expect((await request(app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf)).status).toBe(202);
    } finally {
      server.close();
    }
  });

  it('streams the job as Server-Sent Events, in order, until it ends', async () => {
    const { app } = await makeGateway({ PDF_EDITOR_URL: service.url, JOBS_CONCURRENCY: '1' });
    // A job ahead in the queue, so that the next one is seen waiting.
    await request(app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf);
    const { body } = await request(app).post('/api/v1/jobs?tool=pdf-compress').attach('file', pdf);
    const res = await eventStream(app, body.id);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = (res.body as string).split('\n\n').filter((e) => e.startsWith('id:'));
    const ids = events.map((e) => Number(/^id: (\d+)/.exec(e)![1]));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    const states = events.map((e) => /event: (\w+)/.exec(e)![1]);
    expect(states.at(-1)).toBe('done');
    expect(states.indexOf('running')).toBeLessThan(states.indexOf('done'));
    const last = JSON.parse(/data: (.*)/.exec(events.at(-1)!)![1]!);
    expect(last.result.download).toBeTruthy();
  });

  it("counts a workflow's steps as they end, and gives each step's checks", async () => {
    const { app } = await makeGateway({ PDF_EDITOR_URL: service.url });
    const { body } = await request(app)
      .post('/api/v1/jobs?steps=pdf-compress,rotate-pdf,pdf-compress')
      .attach('file', pdf);
    const res = await eventStream(app, body.id);
    const jobs = (res.body as string)
      .split('\n\n')
      .filter((e) => e.startsWith('id:'))
      .map((e) => JSON.parse(/data: (.*)/.exec(e)![1]!) as JobView);
    const steps = jobs.map((j) => j.progress.steps?.done);
    expect(steps.at(-1)).toBe(3);
    expect(steps.filter((n) => n !== undefined)).toEqual([...steps.filter((n) => n !== undefined)].sort());
    expect(steps).toContain(1);
    expect(steps).toContain(2);
    expect(jobs.at(-1)!.progress.steps).toEqual({ done: 3, total: 3 });
    expect(jobs.at(-1)!.result.properties!.steps).toEqual([
      { tool: 'pdf-compress', checks: [] },
      { tool: 'rotate-pdf', checks: [] },
      { tool: 'pdf-compress', checks: [] },
    ]);
  });
});
