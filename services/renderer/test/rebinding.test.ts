/**
 * DNS rebinding: a name whose answer changes between the address check and the connection. The
 * resolver is replaced by one the test controls; every address it hands out is on the loopback
 * interface except one public address, to which nothing may connect (the job is refused first).
 */
import http from 'node:http';
import type { Express } from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  call,
  html,
  sleep,
  startRenderer,
  startSite,
  startTrap,
  type TestRenderer,
  text,
  type Trap,
} from './helpers.ts';

/** The test's resolver: names it answers for, each with the address it gives at this lookup. */
const names = vi.hoisted(() => new Map<string, (lookup: number) => string>());
const lookups = vi.hoisted(() => new Map<string, number>());
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (host: string, options: object) => {
    const answer = names.get(host);
    if (!answer) return real.lookup(host, options as { all: true });
    const n = (lookups.get(host) ?? 0) + 1;
    lookups.set(host, n);
    return Promise.resolve([{ address: answer(n), family: 4 }]);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let service: TestRenderer;
let app: Express;
let site: Awaited<ReturnType<typeof startSite>>;
/** Listens where the name points after it rebinds: 127.0.0.2, on the site's port. */
let rebound: { hits: string[]; close(): Promise<void> };
/** For the refused case: the loopback listener a public answer turns into. */
let trap: Trap;
let rebinds = false;

beforeAll(async () => {
  site = await startSite({
    '/page': (_req, res) => {
      // From the first request on, the name points elsewhere.
      rebinds = true;
      html(
        res,
        `<!doctype html><html><body><h1>Pinned page</h1><p id="f"></p><img src="/img.png">
<script>fetch('/data').then((r) => r.text()).then((t) => { document.getElementById('f').textContent = t; });</script>
</body></html>`,
      );
    },
    '/data': (_req, res) => res.end('Fetched from the checked address'),
  });
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('rebound');
  });
  await new Promise<void>((r) => server.listen(site.port, '127.0.0.2', r));
  rebound = { hits, close: () => new Promise<void>((r) => server.close(() => r())) };
  trap = await startTrap();
  service = await startRenderer('rebind', { allowPrivateHosts: new Set([`rebind.test:${site.port}`]) });
  app = service.app;
});

afterAll(() => service.stop(site, rebound, trap));

beforeEach(() => {
  rebinds = false;
  lookups.clear();
  site.hits.length = 0;
  rebound.hits.length = 0;
});

describe('a name that changes its answer', () => {
  it("keeps every request of a job on the address checked for the page's host", async () => {
    names.set('rebind.test', () => (rebinds ? '127.0.0.2' : '127.0.0.1'));
    const r = await call(app, 'pdf-from-url', { url: `http://rebind.test:${site.port}/page` });
    expect(r.status).toBe(200);
    const words = text(r.pdf!);
    expect(words).toContain('Pinned page');
    expect(words).toContain('Fetched from the checked address');
    expect(site.hits).toEqual(expect.arrayContaining(['GET /page', 'GET /data', 'GET /img.png']));
    expect(rebinds).toBe(true); // the name did rebind while the page loaded
    expect(rebound.hits).toEqual([]);
  });

  it('is refused when a public answer turns private, and the private address receives nothing', async () => {
    // Not on the allow list: every answer for this name must be a public address. The first passes
    // that check; every later one points at the trap.
    names.set('public.rebind.test', (n) => (n === 1 ? '93.184.215.14' : '127.0.0.1'));
    // Should the public answer ever be connected to, this stops it here, before any packet is sent.
    const request = http.request;
    const offLoopback: string[] = [];
    const guard = vi.spyOn(http, 'request').mockImplementation(((...args: Parameters<typeof http.request>) => {
      const options = args.find((a): a is http.RequestOptions => typeof a === 'object' && !(a instanceof URL));
      options?.lookup?.('', {}, (_err: unknown, address: unknown) => {
        if (typeof address === 'string' && !address.startsWith('127.')) offLoopback.push(address);
      });
      if (offLoopback.length > 0) throw new Error('a connection off the loopback interface');
      return request(...args);
    }) as typeof http.request);
    const r = await call(app, 'pdf-from-url', { url: `http://public.rebind.test:${trap.port}/` }).finally(() =>
      guard.mockRestore(),
    );
    expect(offLoopback).toEqual([]);
    expect(r.status).toBe(403);
    expect(r.error?.code).toBe('url_blocked');
    expect(lookups.get('public.rebind.test')).toBeGreaterThanOrEqual(2);
    await sleep(300);
    expect(trap.hits).toEqual([]);
  });
});
