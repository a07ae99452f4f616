/**
 * Several instances of one service: calls take turns, a refused connection moves on to the next
 * instance, and any other failure is the answer (the request may have reached a service).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createGatewayApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { usageStats } from '../src/db.ts';
import { freePort } from './firebase-emulator.ts';
import { corpus, makeGateway } from './helpers.ts';

const pdf = join(corpus, 'pdf/pdfjs-rotation.pdf');
const servers: Server[] = [];

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** An instance standing in for pdf-editor, counting the calls it receives; `drop` cuts each one off. */
async function instance(drop = false): Promise<{ url: string; calls: () => number }> {
  let calls = 0;
  const answer = await readFile(pdf);
  const server = createServer((req, res) => {
    calls++;
    if (drop) return req.socket.destroy();
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'X-Quire-Output-Kind': 'pdf', 'X-Quire-Output-Name': 'rotated.pdf' });
      res.end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, calls: () => calls };
}

describe('several instances of a service', () => {
  it('reads a comma-separated list, for office as for every service', () => {
    const config = readConfig({ PDF_EDITOR_URL: 'http://10.0.0.1:3101/, http://10.0.0.2:3101' });
    expect(config.serviceUrls['pdf-editor']).toEqual(['http://10.0.0.1:3101', 'http://10.0.0.2:3101']);
    expect(() => readConfig({ PDF_EDITOR_URL: 'http://10.0.0.1:3101,nope' })).toThrow(/PDF_EDITOR_URL.*"nope"/);
    const office = readConfig({ OFFICE_URL: 'http://10.0.0.1:3102,http://10.0.0.2:3102' });
    expect(office.serviceUrls.office).toEqual(['http://10.0.0.1:3102', 'http://10.0.0.2:3102']);
  });

  it('shares the calls among the instances and passes over one that refuses connections', async () => {
    const [a, b] = [await instance(), await instance()];
    const { app } = await makeGateway({
      PDF_EDITOR_URL: [`http://127.0.0.1:${await freePort()}`, a.url, b.url].join(','),
    });
    for (let i = 0; i < 6; i++) {
      const res = await request(app).post('/api.php?tool=rotate-pdf').attach('file', pdf);
      expect(res.status).toBe(200);
      expect(res.body.download).toMatch(/^[0-9a-f]{32}-rotated\.pdf$/);
    }
    expect(a.calls() + b.calls()).toBe(6);
    expect(Math.min(a.calls(), b.calls())).toBeGreaterThan(0);
  });

  it('does not send a call again once an instance has taken it', async () => {
    const [cut, good] = [await instance(true), await instance()];
    const { app, db } = await makeGateway({ PDF_EDITOR_URL: `${cut.url},${good.url}` });
    const before = (await usageStats(db))['rotate-pdf'];
    const res = await request(app).post('/api.php?tool=rotate-pdf').attach('file', pdf);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('not_available');
    expect([cut.calls(), good.calls()]).toEqual([1, 0]);
    // A failed call is not a use.
    expect((await usageStats(db))['rotate-pdf']).toBe(before);
  });
});

/** A service that takes every call and never answers; `ended` resolves when the caller gives up on one. */
async function stuck(): Promise<{ url: string; ended: Promise<void> }> {
  let end: () => void = () => {};
  const ended = new Promise<void>((r) => (end = r));
  const server = createServer((req: IncomingMessage) => {
    req.resume();
    req.socket.once('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, ended };
}

describe('a call that does not end', () => {
  it('is stopped at its time limit with timeout, and the service sees the call end', async () => {
    const service = await stuck();
    const { config, db, store } = await makeGateway({ PDF_EDITOR_URL: service.url });
    const app = createGatewayApp({ config: { ...config, serviceTimeoutMs: 500 }, db, store });
    const started = Date.now();
    const res = await request(app).post('/api.php?tool=rotate-pdf').attach('file', pdf);
    expect(res.status).toBe(504);
    expect(res.body.error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
    await service.ended;
  });

  it('is stopped when the client goes away', async () => {
    const service = await stuck();
    const { app } = await makeGateway({ PDF_EDITOR_URL: service.url });
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    const form = new FormData();
    form.append('file', new Blob([await readFile(pdf)]), 'a.pdf');
    const client = new AbortController();
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api.php?tool=rotate-pdf`;
    const call = fetch(url, { method: 'POST', body: form, signal: client.signal }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
    client.abort();
    await call;
    // The gateway's call to the service ends too, long before any time limit.
    await service.ended;
  });
});
