/**
 * A tool call's upload passed on to its service as it arrives, and the answer streamed into the results
 * store: what the service gets, what the client downloads, what the gateway's bounds still refuse, and
 * that nothing is left on disk when a call fails on the way in or out.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeName } from '@quire/base';
import { createGatewayApp } from '../src/app.ts';
import { usageStats } from '../src/db.ts';
import { corpus, download, makeGateway } from './helpers.ts';
import { startService, type ServiceProcess } from './services.ts';
import { standIn, type StandIn } from './stand-in.ts';

const pdf = join(corpus, 'pdf/qpdf-11-pages.pdf');
const other = join(corpus, 'pdf/pdfjs-rotation.pdf');
/** The gateway's own work folders (WORK_DIR), apart from every other test's. */
const workRoot = mkdtempSync(join(tmpdir(), 'quire-gw-relay-'));
let service: ServiceProcess;
const standIns: StandIn[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  process.env.WORK_DIR = workRoot;
  service = await startService('pdf-editor');
});
afterAll(async () => {
  for (const s of standIns) await s.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await service?.stop();
  await rm(workRoot, { recursive: true, force: true });
});

/** Every file under a directory, however deep (work folders are directories of their own). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => !e.isDirectory()).map((e) => join(e.parentPath, e.name));
}

/** Waits until `check` holds (work folders are removed once the response has closed). */
async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !(await check());) {
    if (Date.now() > end) throw new Error('the condition did not come true in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function listen(app: ReturnType<typeof createGatewayApp>): Promise<number> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((r) => server.once('listening', r));
  return (server.address() as { port: number }).port;
}

/** A multipart body of our own making, sent in chunks with no declared length (as nginx could not check it). */
function postChunked(port: number, path: string, parts: { name: string; filename?: string; data: Buffer }[]) {
  const boundary = `test-${randomBytes(8).toString('hex')}`;
  return new Promise<{ status: number; body: { error?: { code: string; message: string } } }>((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) });
        } catch (err) {
          reject(err as Error);
        }
      });
    });
    req.on('error', reject);
    for (const part of parts) {
      const file = part.filename === undefined ? '' : `; filename="${part.filename}"`;
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`);
      req.write(part.data);
      req.write('\r\n');
    }
    req.end(`--${boundary}--\r\n`);
  });
}

describe('an upload passed on as it arrives', () => {
  it("gives the service the files as sent and only the tool's fields, and never writes them here", async () => {
    const answer = randomBytes(3 * 1024 * 1024 + 17);
    let duringCall: string[] | undefined;
    const service = await standIn({ answer, onRequest: async () => void (duringCall = await filesUnder(workRoot)) });
    standIns.push(service);
    const { app, store } = await makeGateway({ PDF_EDITOR_URL: service.url });
    const odd = '"Quarterly" report (draft).pdf';
    const res = await request(app)
      .post('/api/v1/tools/pdf-merge')
      .field('password', 'first')
      .attach('file', pdf)
      .field('angle', '180')
      .attach('file', other, odd)
      .field('password', 'second')
      .field('junk', 'x');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The service read exactly the client's files, in order, under their cleaned names.
    const [got] = service.received;
    expect(got!.files.map((f) => f.name)).toEqual(['qpdf-11-pages.pdf', safeName(odd)]);
    expect(Buffer.compare(got!.files[0]!.bytes, await readFile(pdf))).toBe(0);
    expect(Buffer.compare(got!.files[1]!.bytes, await readFile(other))).toBe(0);
    // Of the fields, those the tool takes, the first value of each; merge takes no angle.
    expect(got!.fields).toEqual({ password: ['first'] });
    // While the service had the call, the gateway's work folder held no file.
    expect(duringCall).toEqual([]);

    // The stored result is the service's answer, byte for byte, under an unguessable name.
    expect(res.body.download).toMatch(/^[0-9a-f]{32}-résultat\.pdf$/);
    expect(Buffer.compare(await download(app, res.body.download), answer)).toBe(0);
    expect(res.body.properties).toEqual({ bytes: answer.length, pages: 1 });
    expect(res.headers['server-timing']).toMatch(
      /^tool;dur=12\.5, verify;dur=3\.0, steps;dur=[\d.]+, store;dur=[\d.]+$/,
    );
    expect(await readdir(store.dir)).toEqual([res.body.download]);
    await eventually(async () => (await readdir(workRoot)).length === 0);

    // An empty first value is no value, and later ones do not count.
    const rotate = await request(app)
      .post('/api.php?tool=rotate-pdf')
      .field('angle', '')
      .attach('file', pdf)
      .field('angle', '180')
      .field('pages', '2');
    expect(rotate.status).toBe(200);
    expect(service.received[1]!.fields).toEqual({ pages: ['2'] });
  });

  it("runs real tools on it: a merge's result, and a workflow whose later step reads the first's", async () => {
    const { app, db } = await makeGateway({ PDF_EDITOR_URL: service.url });
    const before = await usageStats(db);
    const merged = await request(app).post('/api/v1/tools/pdf-merge').attach('file', pdf).attach('file', other);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const bytes = await download(app, merged.body.download);
    const path = join(workRoot, 'merged.pdf');
    await writeFile(path, bytes);
    const pages = (file: string) => Number(execFileSync('qpdf', ['--show-npages', file]).toString());
    expect(pages(path)).toBe(pages(pdf) + pages(other));
    expect(merged.body.properties).toMatchObject({ bytes: bytes.length, pages: pages(path), files: 2 });
    await rm(path);

    const chain = await request(app).post('/api/v1/workflows?steps=rotate-pdf,pdf-compress').attach('file', pdf);
    expect(chain.status, JSON.stringify(chain.body)).toBe(200);
    expect(chain.body.properties.pages).toBe(pages(pdf));
    expect(chain.headers['server-timing']).toMatch(/steps;dur=[\d.]+, store;dur=[\d.]+$/);
    const after = await usageStats(db);
    expect(after['rotate-pdf']! - before['rotate-pdf']!).toBe(1);
    expect(after['pdf-compress']! - before['pdf-compress']!).toBe(1);
    await eventually(async () => (await readdir(workRoot)).length === 0);
  });

  it("still refuses, itself, what breaks the form's bounds, with the errors of an upload", async () => {
    const { config, db, store } = await makeGateway({ PDF_EDITOR_URL: service.url, UPLOAD_LIMIT_MB: '1' });
    const port = await listen(createGatewayApp({ config, db, store }));
    const path = '/api/v1/tools/pdf-compress';
    const small = await readFile(pdf);
    const big = await postChunked(port, path, [
      { name: 'file', filename: 'big.pdf', data: Buffer.concat([small, Buffer.alloc(1024 * 1024)]) },
    ]);
    expect(big).toEqual({ status: 413, body: { error: expect.objectContaining({ code: 'file_too_large' }) } });
    const unreadable = { code: 'invalid_option', message: 'The request could not be read. Please try again.' };
    const elsewhere = await postChunked(port, path, [{ name: 'document', filename: 'a.pdf', data: small }]);
    expect(elsewhere).toEqual({ status: 400, body: { error: unreadable } });
    const fields = Array.from({ length: 51 }, (_, i) => ({ name: `f${i}`, data: Buffer.from('x') }));
    const flood = await postChunked(port, path, [{ name: 'file', filename: 'a.pdf', data: small }, ...fields]);
    expect(flood).toEqual({ status: 400, body: { error: unreadable } });
    const files = Array.from({ length: 52 }, () => ({ name: 'file', filename: 'a.pdf', data: small }));
    const many = await postChunked(port, '/api/v1/tools/pdf-merge', files);
    expect(many.status).toBe(400);
    expect(many.body.error?.code).toBe('too_many_files');
    expect(await filesUnder(store.dir)).toEqual([]);
    await eventually(async () => (await readdir(workRoot)).length === 0);
  });

  it('leaves no file anywhere when the client goes away halfway through its upload', async () => {
    const { config, db, store } = await makeGateway({ PDF_EDITOR_URL: service.url });
    const port = await listen(createGatewayApp({ config, db, store }));
    const boundary = 'halfway';
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: '/api/v1/tools/pdf-compress',
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(64 << 20) },
    });
    req.on('error', () => {});
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n`);
    req.write(await readFile(pdf));
    for (let i = 0; i < 8; i++) req.write(randomBytes(256 * 1024));
    // The upload reaches the service's work folder as it arrives, and never the gateway's.
    await eventually(async () => (await filesUnder(service.workDir)).length > 0);
    expect(await filesUnder(workRoot)).toEqual([]);
    req.destroy();
    await eventually(async () => (await readdir(workRoot)).length === 0);
    await eventually(async () => (await filesUnder(service.workDir)).length === 0);
    expect(await filesUnder(store.dir)).toEqual([]);
  });
});

describe('an answer streamed into the results store', () => {
  it('takes a result sent while it was checked, keeping it only once the verdict after it says it passed', async () => {
    const answer = randomBytes(512 * 1024);
    const passing = await standIn({ answer, verdict: JSON.stringify({ checks: ['opens'], timing: { verify: 4.5 } }) });
    standIns.push(passing);
    const ok = await makeGateway({ PDF_EDITOR_URL: passing.url });
    const res = await request(ok.app).post('/api/v1/tools/pdf-compress').attach('file', pdf);
    expect(res.status).toBe(200);
    expect(passing.received[0]!.te).toBe('trailers');
    expect(res.body.properties.checks).toEqual(['opens']);
    expect(res.headers['server-timing']).toMatch(/verify;dur=4\.5/);
    expect(await download(ok.app, res.body.download)).toEqual(answer);

    const error = { error: { code: 'damaged_input', message: 'This file is damaged.' } };
    for (const verdict of [JSON.stringify(error), null, 'not json', JSON.stringify({ checks: 'opens' })]) {
      const failing = await standIn({ answer, verdict });
      standIns.push(failing);
      const { app, store, db } = await makeGateway({ PDF_EDITOR_URL: failing.url });
      const before = (await usageStats(db))['pdf-compress'];
      const failed = await request(app).post('/api/v1/tools/pdf-compress').attach('file', pdf);
      // The service's error as it gave it; a verdict missing or unreadable is ours.
      const expected = verdict === JSON.stringify(error) ? [422, 'damaged_input'] : [500, 'internal'];
      expect([failed.status, failed.body.error.code], String(verdict)).toEqual(expected);
      expect(await filesUnder(store.dir)).toEqual([]);
      expect((await usageStats(db))['pdf-compress']).toBe(before);
    }
    await eventually(async () => (await readdir(workRoot)).length === 0);
  });

  it('keeps nothing of an answer the service cuts off, and counts no use', async () => {
    const cut = await standIn({ answer: randomBytes(4 * 1024 * 1024), fault: 'cut' });
    standIns.push(cut);
    const { app, store, db } = await makeGateway({ PDF_EDITOR_URL: cut.url });
    const before = (await usageStats(db))['pdf-compress'];
    const res = await request(app).post('/api/v1/tools/pdf-compress').attach('file', pdf);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('not_available');
    expect(await filesUnder(store.dir)).toEqual([]);
    expect((await usageStats(db))['pdf-compress']).toBe(before);
    await eventually(async () => (await readdir(workRoot)).length === 0);
  });

  it('keeps nothing of an answer that stops halfway until the time is up', async () => {
    const stall = await standIn({ answer: randomBytes(4 * 1024 * 1024), fault: 'stall' });
    standIns.push(stall);
    const { config, db, store } = await makeGateway({ PDF_EDITOR_URL: stall.url });
    const app = createGatewayApp({ config: { ...config, serviceTimeoutMs: 1000 }, db, store });
    const res = await request(app).post('/api/v1/tools/pdf-compress').attach('file', pdf);
    expect(res.status).toBe(504);
    expect(res.body.error.code).toBe('timeout');
    expect(await filesUnder(store.dir)).toEqual([]);
    await eventually(async () => (await readdir(workRoot)).length === 0);
  });
});
