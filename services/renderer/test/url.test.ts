/**
 * URL tools against a local web site. The machine has no internet, and the policy refuses local
 * addresses by design, so this file uses the test-only allow list for exactly one host:port (the site);
 * everything else local (a trap listener, other names of the same site) must still be refused.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Express } from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  call,
  corpusHtml,
  html,
  info,
  pageCount,
  sleep,
  startRenderer,
  startSite,
  startTrap,
  type TestRenderer,
  text,
  type Trap,
} from './helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let service: TestRenderer;
let app: Express;
let trap: Trap;
let site: Awaited<ReturnType<typeof startSite>>;
const png = readFileSync(join(corpusHtml, 'gotenberg-html-with-asset/image.png'));

beforeAll(async () => {
  trap = await startTrap();
  const T = `http://127.0.0.1:${trap.port}`;
  site = await startSite({
    '/page': (_req, res) =>
      html(
        res,
        `<!doctype html><html><head><title>Local page</title>
<link rel="stylesheet" href="/style.css"><link rel="stylesheet" href="/moved.css">
<style>@media screen { .print-only { display: none } } @media print { .screen-only { display: none } }</style></head>
<body><h1>Served from a local site</h1>
<p class="print-only">Only in print</p><p class="screen-only">Only on screen</p>
<img src="/img.png" width="50" height="50"><img src="${T}/trap-img">
<p id="fetched"></p>
<script>
  fetch('/data.json').then((r) => r.json()).then((d) => { document.getElementById('fetched').textContent = d.message; });
  fetch('${T}/trap-fetch').catch(() => {});
  navigator.sendBeacon('${T}/trap-beacon', 'x');
</script>
<iframe src="${T}/trap-frame"></iframe></body></html>`,
      ),
    '/style.css': (req, res) => {
      // Compressed when the client asks, as real servers do: the page must get it decompressed.
      const css = 'h1::after { content: " with gzip CSS" }';
      if (/gzip/.test(String(req.headers['accept-encoding']))) {
        res.writeHead(200, { 'content-type': 'text/css', 'content-encoding': 'gzip' });
        res.end(gzipSync(css));
      } else {
        res.writeHead(200, { 'content-type': 'text/css' });
        res.end(css);
      }
    },
    '/moved.css': (_req, res) => {
      res.writeHead(302, { location: '/real.css' });
      res.end();
    },
    '/real.css': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end('body::after { content: "CSS behind a redirect" }');
    },
    '/img.png': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    },
    '/data.json': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Fetched by the page script' }));
    },
    '/hop1': (_req, res) => {
      res.writeHead(302, { location: '/hop2' });
      res.end();
    },
    '/hop2': (_req, res) => {
      res.writeHead(301, { location: '/page' });
      res.end();
    },
    '/to-loopback': (_req, res) => {
      res.writeHead(302, { location: `${T}/redirected` });
      res.end();
    },
    '/to-localhost': (_req, res) => {
      res.writeHead(302, { location: `http://localhost:${site.port}/page` });
      res.end();
    },
    '/to-metadata': (_req, res) => {
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    },
    '/to-file': (_req, res) => {
      res.writeHead(302, { location: 'file:///etc/passwd' });
      res.end();
    },
    '/loop': (_req, res) => {
      res.writeHead(302, { location: '/loop' });
      res.end();
    },
    '/error': (_req, res) => html(res, '<p>Server error page</p>', 500),
    '/tall': (_req, res) =>
      html(
        res,
        `<!doctype html><html><body style="margin:0"><div style="height:3000px;background:rgb(255,0,0)">Top</div></body></html>`,
      ),
    '/very-tall': (_req, res) =>
      html(
        res,
        `<!doctype html><html><body style="margin:0"><div style="height:30000px;background:rgb(0,0,255)">Top</div></body></html>`,
      ),
  });
  service = await startRenderer('url', {
    allowPrivateHosts: new Set([`127.0.0.1:${site.port}`, '127.0.0.1:9']),
    maxScreenshotHeight: 21_000,
  });
  app = service.app;
});

afterAll(() => service.stop(trap, site));

beforeEach(() => {
  site.hits.length = 0;
});

const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('pdf-from-url', () => {
  it('prints a page with its styles, images, scripts and fetches, in print media', async () => {
    const r = await call(app, 'pdf-from-url', { url: `${site.origin}/page` });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    expect(r.status).toBe(200);
    expect(decodeURIComponent(r.headers['x-quire-output-name']!)).toBe('127.0.0.1.pdf');
    const got = flat(text(r.pdf!));
    expect(got).toContain('Served from a local site with gzip CSS');
    expect(got).toContain('CSS behind a redirect');
    expect(got).toContain('Fetched by the page script');
    expect(got).toContain('Only in print');
    expect(got).not.toContain('Only on screen');
    expect(execFileSync('pdfimages', ['-list', r.pdf!]).toString().trim().split('\n').length).toBeGreaterThan(2);
    // Each hop of the stylesheet's redirect was fetched by us, one request each.
    expect(site.hits).toEqual(
      expect.arrayContaining([
        'GET /page',
        'GET /style.css',
        'GET /moved.css',
        'GET /real.css',
        'GET /img.png',
        'GET /data.json',
      ]),
    );
    await sleep(300);
    expect(trap.hits).toEqual([]);
  });

  it('follows redirects of the page itself, checking each hop', async () => {
    const r = await call(app, 'pdf-from-url', { url: `${site.origin}/hop1` });
    expect(r.error).toBeUndefined();
    expect(flat(text(r.pdf!))).toContain('Served from a local site');
    expect(site.hits.slice(0, 3)).toEqual(['GET /hop1', 'GET /hop2', 'GET /page']);
  });

  it('takes pageSize and landscape', async () => {
    const r = await call(app, 'pdf-from-url', {
      url: `${site.origin}/page`,
      fields: { pageSize: 'letter', landscape: 'true' },
    });
    expect(info(r.pdf!)['Page size']).toMatch(/^792 x 612 pts/);
  });

  it('refuses a redirect to a local or forbidden place (url_blocked), which receives nothing', async () => {
    for (const path of ['/to-loopback', '/to-localhost', '/to-metadata', '/to-file']) {
      const r = await call(app, 'pdf-from-url', { url: `${site.origin}${path}` });
      expect(r.status, path).toBe(403);
      expect(r.error?.code).toBe('url_blocked');
    }
    // `localhost` is the same server under a name that is not on the allow list: never reached.
    expect(site.hits.filter((h) => h === 'GET /page')).toEqual([]);
    await sleep(300);
    expect(trap.hits).toEqual([]);
  });

  it('answers url_unreachable for errors, loops and closed ports', async () => {
    const r500 = await call(app, 'pdf-from-url', { url: `${site.origin}/error` });
    expect(r500.status).toBe(502);
    expect(r500.error).toEqual({ code: 'url_unreachable', message: 'The page answered with an error (HTTP 500).' });
    const loop = await call(app, 'pdf-from-url', { url: `${site.origin}/loop` });
    expect(loop.error?.code).toBe('url_unreachable');
    // Port 9 is allowed here but nothing listens there (it is the browser's dead proxy).
    const closed = await call(app, 'pdf-from-url', { url: 'http://127.0.0.1:9/' });
    expect(closed.status).toBe(502);
    expect(closed.error?.code).toBe('url_unreachable');
  });
});

describe('screenshot-to-pdf', () => {
  /** The colour at the middle of a PDF's first page, rendered small, to the nearest 8. */
  const middle = (pdf: string): number[] => {
    const ppm = execFileSync('pdftoppm', ['-r', '9', '-f', '1', '-l', '1', pdf]);
    const [, w, h] = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
    const header = ppm.length - Number(w) * Number(h) * 3;
    const at = header + (Math.floor(Number(h) / 2) * Number(w) + Math.floor(Number(w) / 2)) * 3;
    return [...ppm.subarray(at, at + 3)].map((v) => Math.round(v / 8) * 8);
  };

  it('captures the whole page at the width asked, on one page of that size', async () => {
    const r = await call(app, 'screenshot-to-pdf', { url: `${site.origin}/tall`, fields: { width: '800' } });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    expect(pageCount(r.pdf!)).toBe(1);
    expect(info(r.pdf!)['Page size']).toMatch(/^600 x 2250 pts/); // 800 x 3000 CSS px
    expect(r.properties).toMatchObject({ pages: 1, width: 800, height: 3000 });
    const list = execFileSync('pdfimages', ['-list', r.pdf!]).toString();
    expect(list).toMatch(/\s800\s+3000\s/);
    expect(middle(r.pdf!)).toEqual([256, 0, 0]);
  });

  it('is 1280 wide by default and in screen media', async () => {
    const r = await call(app, 'screenshot-to-pdf', { url: `${site.origin}/tall` });
    expect(info(r.pdf!)['Page size']).toMatch(/^960 x 2250 pts/);
  });

  it('cuts a page taller than the limit and splits it over pages Acrobat can open', async () => {
    const r = await call(app, 'screenshot-to-pdf', { url: `${site.origin}/very-tall`, fields: { width: '400' } });
    expect(r.error).toBeUndefined();
    expect(r.properties).toMatchObject({ pages: 2, width: 400, height: 21_000 });
    const sizes = execFileSync('pdfinfo', ['-f', '1', '-l', '2', r.pdf!]).toString();
    expect(sizes).toMatch(/Page\s+1 size:\s+300 x 14400 pts/);
    expect(sizes).toMatch(/Page\s+2 size:\s+300 x 1350 pts/);
    expect(middle(r.pdf!)).toEqual([0, 0, 256]);
  });

  it('refuses a width outside 320..3840', async () => {
    const r = await call(app, 'screenshot-to-pdf', { url: `${site.origin}/tall`, fields: { width: '100' } });
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('invalid_option');
  });
});
