/**
 * The network policy, modelled on Gotenberg's SSRF tests: a listener on 127.0.0.1 (and ::1, and a UDP
 * socket) must receive NOTHING from uploaded HTML, whatever the page tries, nor from URL conversions of
 * local or private addresses. No test-only allow list is set in this file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveAllowed } from '../src/net/address.ts';
import { parseAllowList } from '../src/settings.ts';
import {
  call,
  corpusHtml,
  makeZip,
  sleep,
  startRenderer,
  startTrap,
  type TestRenderer,
  text,
  type Trap,
} from './helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const files = mkdtempSync(join(tmpdir(), 'renderer-ssrf-files-'));
let service: TestRenderer;
let app: Express;
let trap: Trap;

beforeAll(async () => {
  delete process.env.RENDERER_ALLOW_PRIVATE_HOSTS;
  trap = await startTrap();
  service = await startRenderer('ssrf', { allowPrivateHosts: new Set() });
  app = service.app;
});

afterAll(async () => {
  await service.stop(trap);
  rmSync(files, { recursive: true, force: true });
});

afterEach(async () => {
  // Anything late (a beacon sent on unload, a retried connection) would show here.
  await sleep(300);
  expect(trap.hits).toEqual([]);
});

function page(name: string, body: string): string {
  const path = join(files, name);
  writeFileSync(path, `<!doctype html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`);
  return path;
}

describe('uploaded HTML reaches nothing but its own files', () => {
  it('every way a page can make a request is refused, and the page still prints', async () => {
    const L = `http://127.0.0.1:${trap.port}`;
    const hosts = [L, `http://localhost:${trap.port}`, `http://[::1]:${trap.port}`, `http://0.0.0.0:${trap.port}`];
    const probes = hosts
      .map(
        (h, i) => `
<img src="${h}/img${i}">
<iframe src="${h}/iframe${i}"></iframe>
<object data="${h}/object${i}"></object>
<video src="${h}/video${i}"></video>
<link rel="stylesheet" href="${h}/css${i}">
<link rel="prefetch" href="${h}/prefetch${i}">
<link rel="preload" as="image" href="${h}/preload${i}">
<link rel="preconnect" href="${h}">
<link rel="dns-prefetch" href="${h}">
<div style="background-image: url('${h}/cssurl${i}')">&nbsp;</div>
<style>@import url("${h}/import${i}"); @font-face { font-family: T${i}; src: url("${h}/font${i}") } p { font-family: T${i} }</style>
<script src="${h}/script${i}"></script>
<script>
  fetch('${h}/fetch${i}', { mode: 'no-cors' }).then((r) => r.text()).then((t) => document.body.append('LEAK ' + t)).catch(() => {});
  fetch('${h}/post${i}', { method: 'POST', body: 'x', keepalive: true }).catch(() => {});
  try { const x = new XMLHttpRequest(); x.open('GET', '${h}/xhr${i}'); x.send(); } catch (e) {}
  try { new WebSocket('${h.replace('http', 'ws')}/ws${i}'); } catch (e) {}
  try { new EventSource('${h}/events${i}'); } catch (e) {}
  try { navigator.sendBeacon('${h}/beacon${i}', 'x'); } catch (e) {}
  try { new Worker(URL.createObjectURL(new Blob(["fetch('${h}/worker${i}').catch(() => {})"]))); } catch (e) {}
  try { navigator.serviceWorker.register('${h}/sw${i}.js').catch(() => {}); } catch (e) {}
  try { window.open('${h}/popup${i}'); } catch (e) {}
  new Image().src = '${h}/image${i}';
</script>`,
      )
      .join('\n');
    const webrtc = `<script>
  try {
    const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${trap.udpPort}' }, { urls: 'turn:127.0.0.1:${trap.port}?transport=tcp', username: 'u', credential: 'c' }] });
    pc.createDataChannel('x');
    pc.createOffer().then((o) => pc.setLocalDescription(o));
  } catch (e) {}
</script>`;
    const form = `<form id="f" method="post" action="${L}/form" target="sink"><input name="a" value="b"></form><iframe name="sink"></iframe>
<script>document.getElementById('f').submit();</script>`;
    const local = `<iframe src="file:///etc/passwd"></iframe><iframe src="/etc/passwd"></iframe>
<script>fetch('file:///etc/passwd').then((r) => r.text()).then((t) => document.body.append(t)).catch(() => {});</script>`;
    const path = page('probes.html', `<p>probe page printed</p>${probes}${webrtc}${form}${local}`);
    const r = await call(app, 'html-to-pdf', { file: path });
    expect(r.error).toBeUndefined();
    const got = text(r.pdf!);
    expect(got).toContain('probe page printed');
    expect(got).not.toMatch(/LEAK|trap|root:/);
  });

  it('a meta refresh or script navigation to a local address is refused', async () => {
    const L = `http://127.0.0.1:${trap.port}`;
    for (const body of [
      `<meta http-equiv="refresh" content="0; url=${L}/refresh"><p>refresh</p>`,
      `<p>script</p><script>location.href = '${L}/navigate';</script>`,
      `<p>frame</p><iframe srcdoc="<script>top.location = '${L}/top'</script>"></iframe>`,
    ]) {
      const r = await call(app, 'html-to-pdf', { file: page('nav.html', body) });
      expect(r.status).toBe(200);
    }
  });

  it('header and footer templates cannot load anything either', async () => {
    const L = `http://127.0.0.1:${trap.port}`;
    const zip = makeZip([
      { name: 'index.html', data: '<p>with header</p>' },
      { name: 'header.html', data: `<img src="${L}/header-img"><span class="pageNumber"></span>` },
      { name: 'footer.html', data: `<link rel="stylesheet" href="${L}/footer-css"><span class="title"></span>` },
    ]);
    const r = await call(app, 'html-to-pdf', { file: zip });
    expect(r.error).toBeUndefined();
    expect(text(r.pdf!)).toContain('with header');
  });

  it('the corpus probe of local files prints none of them (gotenberg-feature-rich.html)', async () => {
    const r = await call(app, 'html-to-pdf', { file: join(corpusHtml, 'gotenberg-feature-rich.html') });
    expect(r.status).toBe(200);
    expect(text(r.pdf!)).not.toMatch(/root:|daemon:|nologin/);
  });
});

describe('URL tools refuse local and private addresses', () => {
  const blocked = () => [
    `http://127.0.0.1:${trap.port}/`,
    `http://localhost:${trap.port}/`,
    `http://LOCALHOST:${trap.port}/`,
    `http://[::1]:${trap.port}/`,
    `http://0.0.0.0:${trap.port}/`,
    `http://127.1:${trap.port}/`,
    `http://2130706433:${trap.port}/`,
    `http://0x7f.0.0.1:${trap.port}/`,
    `http://[::ffff:127.0.0.1]:${trap.port}/`,
    `http://[::ffff:7f00:1]:${trap.port}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://[::]/',
    `https://127.0.0.1:${trap.port}/`,
  ];

  for (const tool of ['pdf-from-url', 'screenshot-to-pdf']) {
    it(`${tool}: every local or private address is url_blocked (403)`, async () => {
      for (const url of blocked()) {
        const r = await call(app, tool, { url });
        expect(r.status, url).toBe(403);
        expect(r.error?.code, url).toBe('url_blocked');
        expect(r.error?.message).not.toContain('127.0.0.1');
      }
    });
  }

  it('refuses other schemes as invalid URLs', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://127.0.0.1/',
      'javascript:alert(1)',
      'data:text/html,<p>x</p>',
      'gopher://localhost:25/',
    ]) {
      const r = await call(app, 'pdf-from-url', { url });
      expect(r.status, url).toBe(400);
      expect(r.error?.code).toBe('invalid_url');
    }
  });

  it('answers url_unreachable for a name that does not resolve', async () => {
    const r = await call(app, 'pdf-from-url', { url: 'http://nothing-here.invalid/' });
    expect(r.status).toBe(502);
    expect(r.error?.code).toBe('url_unreachable');
  });

  it('the address check itself', async () => {
    const none = new Set<string>();
    await expect(resolveAllowed(new URL('http://localhost/'), none)).rejects.toMatchObject({ kind: 'blocked' });
    await expect(resolveAllowed(new URL('file:///etc/passwd'), none)).rejects.toMatchObject({ kind: 'blocked' });
    await expect(resolveAllowed(new URL('http://[::ffff:a9fe:a9fe]/'), none)).rejects.toMatchObject({
      kind: 'blocked',
    });
    await expect(resolveAllowed(new URL('http://93.184.215.14/'), none)).resolves.toEqual({
      address: '93.184.215.14',
      family: 4,
    });
    // The allow list names a host and port exactly; another port or name of the same place is still refused.
    const list = new Set(['127.0.0.1:8080']);
    await expect(resolveAllowed(new URL('http://127.0.0.1:8080/x'), list)).resolves.toMatchObject({
      address: '127.0.0.1',
    });
    await expect(resolveAllowed(new URL('http://127.0.0.1:8081/x'), list)).rejects.toMatchObject({ kind: 'blocked' });
    await expect(resolveAllowed(new URL('http://localhost:8080/x'), list)).rejects.toMatchObject({ kind: 'blocked' });
  });

  it('the test-only allow list is refused in production', () => {
    expect(() => parseAllowList('127.0.0.1:8080', 'production')).toThrow(/tests only/);
    expect(parseAllowList('', 'production').size).toBe(0);
    expect(() => parseAllowList('127.0.0.1', 'test')).toThrow(/host:port/);
    expect([...parseAllowList('127.0.0.1:8080, [::1]:9', 'test')]).toEqual(['127.0.0.1:8080', '[::1]:9']);
  });
});
