import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus, makeGateway } from './helpers.ts';
import { standIn, type StandIn } from './stand-in.ts';

const pdf = join(corpus, 'pdf/qpdf-11-pages.pdf');

describe('saved workflows', () => {
  let service: StandIn;
  let app: Awaited<ReturnType<typeof makeGateway>>['app'];
  beforeAll(async () => {
    service = await standIn({ answer: Buffer.from('%PDF-1.7\n%%EOF\n') });
    ({ app } = await makeGateway({ PDF_EDITOR_URL: service.url }));
  });
  afterAll(() => service.close());

  const steps = [
    { tool: 'rotate-pdf', options: { angle: '180' } },
    { tool: 'add-watermark', options: { text: 'DRAFT', opacity: 0.5 } },
    { tool: 'pdf-compress' },
  ];

  it('keeps a workflow with its options under an unguessable id, and gives it back', async () => {
    const saved = await request(app).post('/api/v1/workflows/saved').send({ name: 'Turn and mark', steps });
    expect(saved.status).toBe(201);
    expect(saved.body.id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(saved.body.link).toBe(`/workflow/saved/${saved.body.id}`);
    const again = await request(app).get(`/api/v1/workflows/saved/${saved.body.id}`);
    expect(again.body).toMatchObject({ id: saved.body.id, name: 'Turn and mark', steps });
    const other = await request(app).post('/api/v1/workflows/saved').send({ steps });
    expect(other.body.id).not.toBe(saved.body.id);
    expect(other.body.name).toBe('Rotate PDF → Add Watermark → Compress PDF');
  });

  it('runs a saved workflow by its id, each step with its own options', async () => {
    const { body } = await request(app).post('/api/v1/workflows/saved').send({ steps });
    const before = service.received.length;
    const run = await request(app).post(`/api/v1/workflows?saved=${body.id}`).attach('file', pdf);
    expect(run.status).toBe(200);
    expect(run.body.download).toBeTruthy();
    const calls = service.received.slice(before);
    expect(calls).toHaveLength(3);
    expect(calls[0]!.fields.angle).toEqual(['180']);
    expect(calls[1]!.fields).toMatchObject({ text: ['DRAFT'], opacity: ['0.5'] });
    expect(calls[1]!.fields.angle).toBeUndefined();
    expect(Object.keys(calls[2]!.fields)).toEqual([]);
  });

  it('runs a saved workflow as a job, a batch of files each through every step with its options', async () => {
    const { body } = await request(app).post('/api/v1/workflows/saved').send({ steps });
    const before = service.received.length;
    const job = await request(app).post(`/api/v1/jobs?saved=${body.id}`).attach('file', pdf).attach('file', pdf);
    expect(job.status).toBe(202);
    let state = job.body.state as string;
    for (let i = 0; i < 400 && !['done', 'failed'].includes(state); i++) {
      await new Promise((r) => setTimeout(r, 25));
      state = (await request(app).get(`/api/v1/jobs/${job.body.id}`)).body.state as string;
    }
    expect(state).toBe('done');
    const calls = service.received.slice(before);
    expect(calls).toHaveLength(6);
    expect(calls.filter((c) => c.fields.angle?.[0] === '180')).toHaveLength(2);
    expect(calls.filter((c) => c.fields.text?.[0] === 'DRAFT')).toHaveLength(2);
  });

  it('refuses a workflow that cannot run, naming the step, and an id it does not hold', async () => {
    const misfit = await request(app)
      .post('/api/v1/workflows/saved')
      .send({ steps: [{ tool: 'pdf-to-word' }, { tool: 'pdf-compress' }] });
    expect(misfit.status).toBe(400);
    expect(misfit.body.error).toMatchObject({ code: 'invalid_workflow' });
    expect(misfit.body.error.message).toMatch(/^Step 2 \("pdf-compress"\) cannot read the DOCX file/);
    const badOption = await request(app)
      .post('/api/v1/workflows/saved')
      .send({ steps: [{ tool: 'rotate-pdf', options: { angle: 45 } }] });
    expect(badOption.body.error.message).toMatch(/^Step 1 \("rotate-pdf"\): The option "angle" must be one of/);
    const notAList = await request(app).post('/api/v1/workflows/saved').send({ steps: 'rotate-pdf' });
    expect(notAList.body.error.code).toBe('invalid_workflow');
    // A tool call that also names a saved workflow runs neither.
    const { body: saved } = await request(app).post('/api/v1/workflows/saved').send({ steps });
    const before = service.received.length;
    const both = await request(app).post(`/api/v1/tools/pdf-compress?saved=${saved.id}`).attach('file', pdf);
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('invalid_workflow');
    expect(service.received.length).toBe(before);
    const unknown = await request(app).get('/api/v1/workflows/saved/AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    const run = await request(app).post('/api/v1/workflows?saved=../../etc').attach('file', pdf);
    expect(run.status).toBe(404);
    expect(run.body.error.code).toBe('not_found');
  });

  it("lists no one's workflows without a sign-in", async () => {
    const res = await request(app).get('/api/v1/me/workflows');
    expect(res.status).toBe(401);
  });
});
