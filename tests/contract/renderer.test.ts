/**
 * HTML to PDF and the URL tools end to end, through nginx, the gateway and the renderer service.
 * The gateway checks URLs before the renderer sees them, and every address here is local, so URL
 * conversions can only be refused in this suite; the renderer's own tests cover their success with a
 * local site on a test-only allow list.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { info, pageCount, qpdfCheck, text } from '../lib/pdf.ts';

const html = (name: string) => join(corpusDir, 'html', name);
const scratch = mkdtempSync(join(tmpdir(), 'contract-renderer-'));

let base: string;
/** A listener on 127.0.0.1 that must hear nothing from any conversion. */
let trap: http.Server;
let trapPort: number;
const hits: string[] = [];

beforeAll(async () => {
  base = inject('baseUrl');
  trap = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('trap');
  });
  trap.on('connection', () => hits.push('tcp'));
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
  trapPort = (trap.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((r) => trap.close(r));
  rmSync(scratch, { recursive: true, force: true });
});

const run = (tool: string, files: string[], fields: Record<string, string> = {}) => runTool(base, tool, files, fields);

/** A zip written with Python's zipfile: entries as name -> text, or name -> ['file', path]. */
function zip(name: string, entries: Record<string, string | ['file', string]>): string {
  const path = join(scratch, name);
  execFileSync(
    'python3',
    [
      '-c',
      `import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    for name, value in json.loads(sys.stdin.read()).items():
        z.writestr(name, open(value[1], 'rb').read() if isinstance(value, list) else value)`,
      path,
    ],
    { input: JSON.stringify(entries) },
  );
  return path;
}

describe('html-to-pdf', () => {
  it('prints an HTML file: 12 pages with their headings (gotenberg-pages-12.html)', async () => {
    const { path, res, download: name, properties } = await run('html-to-pdf', [html('gotenberg-pages-12.html')]);
    expect(name).toMatch(/^[0-9a-f]{32}-gotenberg-pages-12\.pdf$/);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(qpdfCheck(path)).toBe(0);
    expect(pageCount(path)).toBe(12);
    expect(properties.pages).toBe(12);
    for (const n of [1, 6, 12]) expect(text(path, { first: n, last: n }).trim()).toBe(`Page ${n}`);
  });

  it('uses print CSS and prints nothing of local files (gotenberg-feature-rich.html)', async () => {
    const { path } = await run('html-to-pdf', [html('gotenberg-feature-rich.html')]);
    const got = text(path).replace(/\s+/g, ' ');
    expect(got).toContain("Emulated media type is 'print'.");
    expect(got).not.toContain("Emulated media type is 'screen'.");
    expect(got).not.toMatch(/root:|daemon:|nologin/);
  });

  it('takes pageSize and landscape', async () => {
    const { path } = await run('html-to-pdf', [html('jod-test.html')], { pageSize: 'letter', landscape: 'true' });
    expect(info(path)['Page size']).toMatch(/^792 x 612 pts/);
    expect(text(path)).toContain('Test document');
  });

  it('prints a zip of a page with its assets, header and footer', async () => {
    const dir = join(corpusDir, 'html');
    const site = zip('site.zip', {
      'index.html': `<!doctype html><html><head><title>Zipped site</title><link rel="stylesheet" href="css/s.css"></head>
<body><p class="a">Asset test</p><img src="image.png" width="100" height="100">
<h1 style="break-before: page">Second page</h1></body></html>`,
      'css/s.css': '.a::after { content: " with zipped CSS" }',
      'image.png': ['file', join(dir, 'gotenberg-html-with-asset/image.png')],
      'footer.html': ['file', join(dir, 'gotenberg-header-footer/footer.html')],
    });
    const { path, download: name } = await run('html-to-pdf', [site]);
    expect(name).toMatch(/-site\.pdf$/);
    expect(pageCount(path)).toBe(2);
    expect(text(path, { first: 1, last: 1 }).replace(/\s+/g, ' ')).toContain('Asset test with zipped CSS');
    expect(text(path, { first: 2, last: 2 })).toMatch(/2 of 2/);
    expect(execFileSync('pdfimages', ['-list', path]).toString().trim().split('\n').length).toBeGreaterThan(2);
  });

  it('refuses zip-slip names and links with a clear 4xx', async () => {
    const slip = zip('slip.zip', { 'index.html': '<p>hi</p>', '../../evil.html': 'evil' });
    const r = await post(`${base}/api.php?tool=html-to-pdf`, [slip]);
    expect([415, 422]).toContain(r.status);
    expect(r.body.error?.message).not.toMatch(/evil|\/tmp|\/etc/);
  });

  it('refuses what is not HTML (judged by content)', async () => {
    const fake = join(scratch, 'fake.html');
    writeFileSync(fake, '%PDF-1.4 not really');
    const r = await post(`${base}/api.php?tool=html-to-pdf`, [fake]);
    expect(r.status).toBe(415);
    expect(r.body.error?.code).toBe('unsupported_type');
  });

  it('an uploaded page reaches nothing on the machine', async () => {
    const h = `http://127.0.0.1:${trapPort}`;
    const probe = join(scratch, 'probe.html');
    writeFileSync(
      probe,
      `<!doctype html><html><head><link rel="stylesheet" href="${h}/css"><link rel="prefetch" href="${h}/prefetch">
<meta http-equiv="refresh" content="1; url=${h}/refresh"></head>
<body><p>probe printed</p><img src="${h}/img"><iframe src="${h}/frame"></iframe>
<div style="background: url('${h}/bg')">x</div><iframe src="file:///etc/passwd"></iframe>
<script>
fetch('${h}/fetch').catch(() => {});
try { const x = new XMLHttpRequest(); x.open('GET', '${h}/xhr'); x.send(); } catch (e) {}
try { new WebSocket('ws://127.0.0.1:${trapPort}/ws'); } catch (e) {}
try { new EventSource('${h}/events'); } catch (e) {}
navigator.sendBeacon('${h}/beacon', 'x');
</script></body></html>`,
    );
    const { path } = await run('html-to-pdf', [probe]);
    expect(text(path)).toContain('probe printed');
    await new Promise((r) => setTimeout(r, 500));
    expect(hits).toEqual([]);
  });
});

describe('URL tools through the gateway', () => {
  for (const tool of ['pdf-from-url', 'screenshot-to-pdf']) {
    it(`${tool}: local, private and metadata addresses are url_blocked (403)`, async () => {
      for (const url of [
        `http://127.0.0.1:${trapPort}/`,
        `http://localhost:${trapPort}/`,
        `http://[::1]:${trapPort}/`,
        `http://0.0.0.0:${trapPort}/`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/',
        `http://[::ffff:127.0.0.1]:${trapPort}/`,
      ]) {
        const r = await post(`${base}/api.php?tool=${tool}`, [], { url });
        expect(r.status, url).toBe(403);
        expect(r.body.error?.code, url).toBe('url_blocked');
      }
      expect(hits).toEqual([]);
    });
  }

  it('refuses non-http schemes and empty URLs as invalid_url (400)', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'javascript:alert(1)', '']) {
      const r = await post(`${base}/api.php?tool=pdf-from-url`, [], { url });
      expect(r.status, url).toBe(400);
      expect(r.body.error).toEqual({ code: 'invalid_url', message: 'Please enter a valid URL.' });
    }
  });

  it('refuses a bad screenshot width, naming the field', async () => {
    const r = await post(`${base}/api.php?tool=screenshot-to-pdf`, [], { url: 'https://example.com/', width: '10' });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_option');
    expect(r.body.error?.message).toContain('width');
  });
});
