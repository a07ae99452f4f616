/** The warm browser under trouble: crashes, hangs, restarts and a full queue. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Renderer } from '../src/index.ts';
import { call, corpusHtml, sleep, startRenderer, type TestRenderer, text } from './helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const files = mkdtempSync(join(tmpdir(), 'renderer-browser-files-'));
let service: TestRenderer;
let renderer: Renderer;
let app: Express;

function page(name: string, body: string): string {
  const path = join(files, name);
  writeFileSync(path, `<!doctype html><html><body>${body}</body></html>`);
  return path;
}

/** Chromium's restarts for a reason, as the service's metrics count them. */
async function restarts(reason: string): Promise<number> {
  const { default: request } = await import('supertest');
  const { text } = await request(app).get('/prometheus/metrics');
  const line = new RegExp(`^quire_engine_restarts_total\\{engine="chromium",reason="${reason}"[^}]*\\} (\\d+)$`, 'm');
  return Number(line.exec(text)?.[1]);
}

/**
 * CPU time (clock ticks, 100 a second on Linux) each page process under the browser has used so far,
 * from /proc: a page whose script keeps it busy is seen by its process's growing count.
 */
function pageProcessTicks(browser: number): Map<number, number> {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return [{ pid: Number(pid), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), cmdline }];
      } catch {
        return []; // gone meanwhile
      }
    });
  const under = new Set([browser]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (under.has(p.ppid) && !under.has(p.pid)) {
        under.add(p.pid);
        grew = true;
      }
    }
  }
  return new Map(
    all.filter((p) => under.has(p.pid) && p.cmdline.includes('--type=renderer')).map((p) => [p.pid, p.ticks]),
  );
}

/** Polls until `ok()` holds; fails naming `what` after a bound that only a fault reaches. */
async function until(ok: () => boolean, what: string, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; !ok(); await sleep(50)) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
  }
}

const simple = join(corpusHtml, 'jod-test.html');
/** A page whose script keeps the renderer busy for a while before it loads. */
const busy = (ms: number) =>
  page(`busy-${ms}.html`, `<p>busy</p><script>const end = Date.now() + ${ms}; while (Date.now() < end) {}</script>`);

beforeAll(async () => {
  // One job at a time and nobody waiting, so that a second job at once is answered `busy`.
  process.env.QUEUE_CONCURRENCY = '1';
  process.env.QUEUE_MAX_WAITING = '0';
  // Short limits, so that a page that never ends is stopped soon; long enough for a page that does
  // end to load and print on a busy machine.
  service = await startRenderer('browser', { restartAfterJobs: 3, loadTimeoutMs: 8000, printTimeoutMs: 8000 });
  ({ renderer, app } = service);
});

afterAll(async () => {
  await service.stop();
  rmSync(files, { recursive: true, force: true });
});

describe('the warm browser', () => {
  it('reports itself healthy with its version', async () => {
    const { default: request } = await import('supertest');
    const res = await request(app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'up',
      service: 'renderer',
      engines: { chromium: expect.stringMatching(/^\d+\./) },
    });
  });

  it('a browser killed mid-job fails that job cleanly, and the next job succeeds', async () => {
    const pid = await renderer.supervisor.browserPid();
    expect(pid).toBeGreaterThan(0);
    const launches = renderer.supervisor.stats.launches;
    const before = pageProcessTicks(pid!);
    const job = call(app, 'html-to-pdf', { file: busy(20_000) });
    // The browser is killed once the job's page is busy: a page process has spent a second of CPU since
    // the job was sent (starting one, or the next job's, takes under half of that).
    await until(
      () => [...pageProcessTicks(pid!)].some(([page, ticks]) => ticks - (before.get(page) ?? 0) >= 100),
      'the page to be busy',
    );
    process.kill(pid!, 'SIGKILL');
    // It ends at once, well before the browser's hard limit (load, two prints and 30 s); a job that ran
    // into a limit would be answered 504 timeout.
    const r = await Promise.race([
      job,
      sleep(30_000).then(() => Promise.reject(new Error('the job did not end after its browser was killed'))),
    ]);
    expect(r.status).toBe(500);
    expect(r.error?.code).toBe('internal');
    expect(r.error?.message).toMatch(/try again/);
    expect(r.error?.message).not.toMatch(/chromium|playwright|Target|closed/i);
    const next = await call(app, 'html-to-pdf', { file: simple });
    expect(next.status).toBe(200);
    expect(text(next.pdf!)).toContain('Test document');
    expect(renderer.supervisor.stats.launches).toBe(launches + 1);
    expect(await renderer.supervisor.browserPid()).not.toBe(pid);
    expect(await restarts('crash')).toBe(1);
  });

  it('is replaced by a fresh one after N jobs, and every job still succeeds', async () => {
    const pid = await renderer.supervisor.browserPid();
    const launches = renderer.supervisor.stats.launches;
    for (let i = 0; i < 4; i++) {
      const r = await call(app, 'html-to-pdf', { file: simple });
      expect(r.status).toBe(200);
    }
    expect(renderer.supervisor.stats.launches).toBeGreaterThan(launches);
    expect(await renderer.supervisor.browserPid()).not.toBe(pid);
    expect(await restarts('after_jobs')).toBeGreaterThanOrEqual(1);
    expect(await restarts('crash')).toBe(1);
  });

  it('stops a page that never finishes (timeout, 504), and the next job succeeds', async () => {
    const r = await call(app, 'html-to-pdf', {
      file: page('forever.html', '<p>forever</p><script>while (true) {}</script>'),
    });
    expect(r.status).toBe(504);
    expect(r.error?.code).toBe('timeout');
    // Stopped by the page's own load and print limits, not by the browser's hard limit or the job's,
    // which answer with the general message.
    expect(r.error?.message).toMatch(/^The page took too long to (load|print)\b/);
    const next = await call(app, 'html-to-pdf', { file: simple });
    expect(next.status).toBe(200);
  });

  it('prints pages that open dialogs or call print themselves', async () => {
    const r = await call(app, 'html-to-pdf', {
      file: page(
        'dialogs.html',
        `<p>before dialogs</p><script>alert('a'); confirm('b'); prompt('c'); window.print();
         delete window.print; Window.prototype.print?.call(window); window.print();
         document.body.insertAdjacentHTML('beforeend', '<p>after dialogs</p>');</script>`,
      ),
    });
    expect(r.status).toBe(200);
    expect(text(r.pdf!).replace(/\s+/g, ' ')).toContain('before dialogs after dialogs');
  });

  it('answers busy with Retry-After when the queue is full', async () => {
    const answers = await Promise.all([
      call(app, 'html-to-pdf', { file: busy(2000) }),
      call(app, 'html-to-pdf', { file: busy(2000) }),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.error?.code).toBe('busy');
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
