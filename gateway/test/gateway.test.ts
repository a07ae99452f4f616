import { createReadStream } from 'node:fs';
import { writeFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '@quire/catalog';
import { countUse, usageStats } from '../src/db.ts';
import { readConfig } from '../src/config.ts';
import { corpus, makeGateway } from './helpers.ts';
import { startService, type ServiceProcess } from './services.ts';

const pdf = join(corpus, 'pdf/qpdf-11-pages.pdf');

describe('tool calls answered before any service is reached', () => {
  it('names an unknown tool, also on the versioned route', async () => {
    const { app } = await makeGateway();
    const a = await request(app).post('/api.php?tool=pdf-explode').attach('file', pdf);
    expect(a.status).toBe(404);
    expect(a.body.error.code).toBe('unknown_tool');
    expect(a.body.error.message).toContain('pdf-explode');
    const b = await request(app).post('/api/v1/tools/nope');
    expect(b.body.error.code).toBe('unknown_tool');
  });

  it('asks for a file with the spec message', async () => {
    const { app } = await makeGateway();
    const res = await request(app).post('/api.php?tool=pdf-compress').field('level', 'low');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'missing_file', message: 'Please choose a file.' } });
  });

  it('checks web addresses: form, scheme, private targets, unknown names', async () => {
    const { app } = await makeGateway();
    const post = (url: string) => request(app).post('/api.php?tool=pdf-from-url').field('url', url);
    expect((await post('')).body.error).toEqual({ code: 'invalid_url', message: 'Please enter a valid URL.' });
    expect((await post('javascript:alert(1)')).body.error.code).toBe('invalid_url');
    for (const blocked of [
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://169.254.169.254/latest',
      'http://0.0.0.0/',
      'http://10.1.2.3/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      const res = await post(blocked);
      expect(res.status, blocked).toBe(403);
      expect(res.body.error.code).toBe('url_blocked');
    }
    const gone = await post('http://no-such-host.invalid/');
    expect(gone.status).toBe(502);
    expect(gone.body.error.code).toBe('url_unreachable');
  });

  it('answers not_available for a tool whose service is not deployed, never a fake result', async () => {
    const { app } = await makeGateway();
    const res = await request(app).post('/api.php?tool=pdf-to-word').attach('file', pdf);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('not_available');
  });

  it('answers not_available when a configured service is down', async () => {
    const { app } = await makeGateway({ PDF_EDITOR_URL: 'http://127.0.0.1:9' });
    const res = await request(app).post('/api.php?tool=pdf-compress').attach('file', pdf);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('not_available');
  });

  it('refuses a body declared over the limit with file_too_large', async () => {
    const { app } = await makeGateway({ UPLOAD_LIMIT_MB: '1' });
    const res = await request(app)
      .post('/api.php?tool=pdf-compress')
      .attach('file', Buffer.alloc(2 * 1024 * 1024, 0x20), 'big.pdf');
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('file_too_large');
  });

  it('limits the rate per client with Retry-After', async () => {
    const { app } = await makeGateway({ RATE_LIMIT_PER_MINUTE: '2' });
    const codes: string[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 3; i++) {
      const res = await request(app).post('/api.php?tool=pdf-compress');
      codes.push(res.body.error.code);
      retryAfter ??= res.headers['retry-after'];
    }
    expect(codes).toEqual(['missing_file', 'missing_file', 'rate_limited']);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const { app } = await makeGateway();
    const given = await request(app).get('/track_usage.php').set('X-Request-Id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await request(app).get('/track_usage.php').set('X-Request-Id', '<script>');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("the upload's check, made by the service it is passed on to, answered as the contract says", () => {
  let service: ServiceProcess;
  beforeAll(async () => {
    service = await startService('pdf-editor');
  });
  afterAll(() => service?.stop());
  const gateway = () => makeGateway({ PDF_EDITOR_URL: service.url });

  it('counts files against the tool', async () => {
    const { app } = await gateway();
    const few = await request(app).post('/api.php?tool=pdf-merge').attach('file', pdf);
    expect(few.body.error.code).toBe('too_few_files');
    const many = await request(app).post('/api.php?tool=pdf-compress').attach('file', pdf).attach('file', pdf);
    expect(many.body.error.code).toBe('too_many_files');
  });

  it('judges files by content, not by name', async () => {
    const { app } = await gateway();
    const res = await request(app)
      .post('/api.php?tool=pdf-compress')
      .attach('file', join(corpus, 'pdf-broken/renamed-png-as.pdf'));
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_type');
  });

  it('names the option at fault and its allowed values', async () => {
    const { app } = await gateway();
    const res = await request(app).post('/api.php?tool=rotate-pdf').attach('file', pdf).field('angle', '45');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_option');
    expect(res.body.error.message).toMatch(/angle.*90, 180, 270/);
  });

  it("answers a workflow's upload as a tool call's, and names the step of a later error", async () => {
    const { app } = await gateway();
    const chain = '/api/v1/workflows?steps=rotate-pdf,pdf-compress';
    const option = await request(app).post(chain).attach('file', pdf).field('angle', '45');
    expect(option.status).toBe(400);
    expect(option.body.error).toEqual({
      code: 'invalid_option',
      message: 'The option "angle" must be one of: 90, 180, 270.',
      details: { option: 'angle' },
    });
    const type = await request(app).post(chain).attach('file', join(corpus, 'pdf-broken/renamed-png-as.pdf'));
    expect(type.body.error).toEqual({
      code: 'unsupported_type',
      message: '"renamed-png-as.pdf" is not a file this tool can read (it takes PDF).',
      details: { file: 'renamed-png-as.pdf', tool: 'rotate-pdf', kind: 'png' },
    });
    const empty = await request(app).post(chain).attach('file', Buffer.alloc(0), 'empty.pdf');
    expect(empty.status).toBe(400);
    expect(empty.body.error).toEqual({
      code: 'empty_file',
      message: '"empty.pdf" is empty (0 bytes).',
      details: { file: 'empty.pdf' },
    });
    const few = await request(app).post('/api/v1/workflows?steps=pdf-merge,pdf-compress').attach('file', pdf);
    expect(few.body.error).toEqual({ code: 'too_few_files', message: 'This tool needs at least 2 files.' });
    // The same code from the tool's own run, past the check: a step's error, named as such.
    const ran = await request(app).post(chain).attach('file', pdf).field('pages', '50');
    expect(ran.body.error).toEqual({
      code: 'invalid_option',
      message: 'Step 1 (Rotate PDF): The option "pages" is not valid: the document has 11 pages.',
      details: { option: 'pages', pages: 11, tool: 'rotate-pdf', step: 1 },
    });
  });
});

describe('workflows', () => {
  it('checks the chain before anything runs, naming the first step that does not fit', async () => {
    const { app } = await makeGateway();
    const bad = await request(app).post('/api.php?workflow=custom&steps=pdf-split,pdf-compress').attach('file', pdf);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_workflow');
    expect(bad.body.error.message).toContain('Step 2');
    const unknown = await request(app).post('/api/v1/workflows?steps=pdf-compress,nope').attach('file', pdf);
    expect(unknown.body.error.message).toContain('"nope"');
    const needsOptions = await request(app).post('/api/v1/workflows?steps=pdf-page-remove').attach('file', pdf);
    expect(needsOptions.body.error.code).toBe('invalid_workflow');
    const empty = await request(app).post('/api/v1/workflows?steps=').attach('file', pdf);
    expect(empty.body.error.code).toBe('invalid_workflow');
  });
});

describe('usage', () => {
  it('starts at the catalog seed figures', async () => {
    const { app } = await makeGateway();
    const res = await request(app).get('/track_usage.php');
    expect(res.body.stats['jpg-to-pdf']).toBe(39210);
    expect(Object.keys(res.body.stats).sort()).toEqual(tools.map((t) => t.id).sort());
    const v1 = await request(app).get('/api/v1/usage');
    expect(v1.body).toEqual(res.body);
  });

  it('counts exactly under concurrency and survives reopening', async () => {
    const { db, dataDir } = await makeGateway();
    await Promise.all(Array.from({ length: 200 }, () => countUse(db, 'pdf-merge')));
    expect((await usageStats(db))['pdf-merge']).toBe(19210 + 200);
    await db.destroy();
    const { openDatabase } = await import('../src/db.ts');
    const again = await openDatabase(join(dataDir, 'quire.db'));
    expect((await usageStats(again))['pdf-merge']).toBe(19410);
  });

  it('gives a clean internal error, not a stack, when the database fails', async () => {
    const { app, db } = await makeGateway();
    await db.destroy();
    const res = await request(app).get('/track_usage.php');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('internal');
    expect(JSON.stringify(res.body)).not.toMatch(/at |\.ts|node_modules/);
  });
});

describe('results', () => {
  it('serves a stored result as an attachment with its readable name, then forgets it', async () => {
    const { app, store, dataDir } = await makeGateway({ RESULT_TTL_SECONDS: '60' });
    const src = join(dataDir, 'x.pdf');
    await writeFile(src, '%PDF-1.4 test');
    const name = await store.saveStream(createReadStream(src), 'résumé.pdf');
    expect(name).toMatch(/^[0-9a-f]{32}-résumé\.pdf$/);
    const res = await request(app).get(`/uploads/${encodeURIComponent(name)}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''r%C3%A9sum%C3%A9.pdf");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body.toString()).toBe('%PDF-1.4 test');
    // Past its time it is gone, and the sweeper deletes it.
    const old = new Date(Date.now() - 120_000);
    await utimes(join(store.dir, name), old, old);
    expect((await request(app).get(`/uploads/${encodeURIComponent(name)}`)).status).toBe(404);
    expect(await store.sweep()).toBe(0);
  });

  it('answers 404 to every name that is not exactly a stored result', async () => {
    const { app, store, dataDir } = await makeGateway();
    await writeFile(join(dataDir, 'secret.txt'), 'secret');
    const src = join(dataDir, 'y.pdf');
    await writeFile(src, '%PDF-1.4');
    const name = await store.saveStream(createReadStream(src), 'y.pdf');
    for (const probe of [
      '..%2Fsecret.txt',
      '..%2F..%2Fquire.db',
      '%2e%2e%2fsecret.txt',
      'quire.db',
      name.slice(1),
      name.toUpperCase(),
      `${name.slice(0, 33)}..%2F..%2Fsecret.txt`,
      `${name}%00.txt`,
    ]) {
      const res = await request(app).get(`/uploads/${probe}`);
      expect(res.status, probe).toBe(404);
      expect(res.text).not.toContain('secret');
    }
  });
});

describe('catalog and docs', () => {
  it('lists every tool with its inputs, output and option schema', async () => {
    const { app } = await makeGateway();
    const res = await request(app).get('/api/v1/tools');
    expect(Object.keys(res.body.tools).sort()).toEqual(tools.map((t) => t.id).sort());
    const rotate = res.body.tools['rotate-pdf'];
    expect(rotate.options.properties.angle).toMatchObject({ enum: ['90', '180', '270'], default: '90' });
    expect(res.body.tools['add-watermark'].aliases).toEqual(['watermark-pdf']);
    expect(res.body.tools['pdf-from-url'].input).toEqual({ url: true });
    // A protected Word file takes its password as an encrypted PDF does; an image has none to take.
    expect(res.body.tools['word-to-pdf'].input.password).toBe(true);
    expect(res.body.tools['pdf-unlock'].input.password).toBe(true);
    expect(res.body.tools['jpg-to-pdf'].input.password).toBe(false);
  });

  it('publishes OpenAPI 3.1 with a path per tool and the error codes', async () => {
    const { app } = await makeGateway();
    const res = await request(app).get('/api/v1/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    for (const t of tools) expect(res.body.paths[`/api/v1/tools/${t.id}`]).toBeDefined();
    expect(res.body.components.schemas.Error.properties.error.properties.code.enum).toContain('damaged_input');
    const form = (id: string) =>
      res.body.paths[`/api/v1/tools/${id}`].post.requestBody.content['multipart/form-data'].schema.properties;
    expect(form('excel-to-pdf').password).toMatchObject({ type: 'string' });
    expect(form('jpg-to-pdf').password).toBeUndefined();
    const docs = await request(app).get('/api/v1/docs');
    expect(docs.text).toContain('pdf-compress');
  });
});

describe('configuration', () => {
  it('refuses the auth emulator in production and bad numbers', () => {
    expect(() => readConfig({ NODE_ENV: 'production', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' })).toThrow(
      /production/,
    );
    expect(() => readConfig({ RESULT_TTL_SECONDS: 'soon' })).toThrow(/RESULT_TTL_SECONDS/);
    expect(() => readConfig({ PDF_EDITOR_URL: 'not a url' })).toThrow(/PDF_EDITOR_URL/);
  });
});
