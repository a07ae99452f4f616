/**
 * The supervisor under stress and failure, with real LibreOffice: restarts after N jobs under
 * parallel load, a listener killed in the middle of a job, a job that runs past its time, a full
 * queue, and nothing left behind afterwards (work files, profiles, pipes, processes).
 */
import { existsSync, openAsBlob, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type OfficeApp } from '../src/app.ts';
import {
  imageCount,
  leftovers,
  office,
  pdfPages,
  pdfText,
  recordingServer,
  rewriteZip,
  tempDir,
  words,
  writeHeavyDocx,
} from './helpers.ts';

const work = tempDir('office-faults-work-');
const scratch = tempDir('office-faults-');
const heavy = join(scratch, 'heavy.docx');
const apps: OfficeApp[] = [];
const pids = new Set<number>();

beforeAll(async () => {
  process.env.WORK_DIR = work;
  // 1500 pages: far more than the job limit below of work for LibreOffice, even on a quiet machine,
  // so a job can be caught in flight and always runs past its time.
  await writeHeavyDocx(heavy, 1500);
});

afterAll(async () => {
  const roots = apps.map((a) => a.engine.settings.root);
  for (const a of apps) {
    for (const l of a.engine.listenerPids()) pids.add(l.pid);
    await a.close();
  }
  await new Promise((r) => setTimeout(r, 300));
  try {
    expect(leftovers(work)).toEqual([]);
    for (const root of roots) expect(existsSync(root)).toBe(false);
    // No socket files of ours in /tmp, no listener still running (or left a zombie).
    const uid = process.getuid?.() ?? 0;
    expect(readdirSync('/tmp').filter((f) => f.startsWith(`OSL_PIPE_${uid}_quire-office-${process.pid}-`))).toEqual([]);
    for (const pid of pids) expect(running(pid), `listener ${pid}`).toBe(false);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
});

function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function start(overrides: Parameters<typeof createApp>[0], env: Record<string, string> = {}): OfficeApp {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const app = createApp(overrides);
    apps.push(app);
    return app;
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Sends at once (a supertest request only goes out when awaited) and resolves with the answer. */
function tool(app: OfficeApp, id: string, file: string): Promise<request.Response> {
  return request(app)
    .post(`/tools/${id}`)
    .attach('file', file)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    })
    .then((r) => r);
}

let saved = 0;
function textOf(body: Buffer): string {
  const path = join(scratch, `out-${++saved}.pdf`);
  writeFileSync(path, body);
  return pdfText(path);
}

const jsonOf = (body: Buffer) => JSON.parse(body.toString('utf8')) as { error: { code: string; message: string } };

async function until(what: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!what()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('restart after N jobs', () => {
  let app: OfficeApp;
  beforeAll(async () => {
    app = start({ instances: 2, restartAfter: 3 });
    await app.engine.start();
  });

  it('keeps ten parallel conversions correct while listeners restart every three jobs', async () => {
    const jobs: [string, string, string][] = [
      ['word-to-pdf', 'jod-test.docx', 'test document'],
      ['excel-to-pdf', 'jod-test.xlsx', 'test spreadsheet'],
      ['ppt-to-pdf', 'jod-test.pptx', 'test presentation'],
      ['word-to-pdf', 'jod-test.odt', 'test document'],
      ['excel-to-pdf', 'jod-test.ods', 'test spreadsheet'],
      ['ppt-to-pdf', 'jod-test.odp', 'test presentation'],
      ['word-to-pdf', 'textract-paragraphs_and_tables.docx', 'paragraph before the table'],
      ['word-to-pdf', 'jod-test.rtf', 'test document'],
      ['word-to-pdf', 'gotenberg-pages_12.docx', 'page 12'],
      ['ppt-to-pdf', 'textract-raw_text.pptx', 'i love powerpoint'],
    ];
    const results = await Promise.all(jobs.map(([id, file]) => tool(app, id, office(file))));
    for (const [i, res] of results.entries()) {
      const [, file, says] = jobs[i]!;
      expect(res.status, `${file}: ${(res.body as Buffer).toString().slice(0, 200)}`).toBe(200);
      expect(words(textOf(res.body as Buffer)).join(' '), file).toContain(says);
    }
    await until(() => app.engine.healthy && app.engine.status().instances.every((i) => i.state === 'idle'), 60_000);
    // 10 jobs on 2 listeners, 3 jobs each before a restart.
    expect(app.engine.restarts.after_jobs).toBeGreaterThanOrEqual(2);
    expect(app.engine.restarts.crash + app.engine.restarts.timeout).toBe(0);
    const metrics = await request(app).get('/prometheus/metrics');
    expect(metrics.text).toMatch(
      new RegExp(
        `quire_engine_restarts_total\\{engine="libreoffice",reason="after_jobs"[^}]*\\} ${app.engine.restarts.after_jobs}`,
      ),
    );
    expect(metrics.text).toMatch(
      new RegExp(`gotenberg_libreoffice_restarts_count\\{[^}]*\\} ${app.engine.restarts.after_jobs}`),
    );

    // Restarted listeners start from a copy of the first one's profile: the same rules hold there.
    const web = await recordingServer();
    try {
      const linked = join(scratch, 'linked-http.odt');
      await rewriteZip(office('jod-test_with_linked_images.odt'), linked, 'content.xml', (x) =>
        x.replace('xlink:href="../pdf2137720158525786849.png"', `xlink:href="${web.url}/linked.png"`),
      );
      const res = await tool(app, 'word-to-pdf', linked);
      expect(res.status).toBe(200);
      const pdf = join(scratch, 'linked.pdf');
      writeFileSync(pdf, res.body as Buffer);
      expect(imageCount(pdf)).toBe(1);
      expect(web.requests).toEqual([]);
    } finally {
      await web.close();
    }
  });
});

describe('a listener that fails to start', () => {
  /** An soffice that exits at once for its first `failures` starts, then is the real one. */
  function flakySoffice(name: string, failures: number): string {
    const count = join(scratch, `${name}.count`);
    const script = join(scratch, `${name}.sh`);
    writeFileSync(
      script,
      `#!/bin/sh\nn=$(cat '${count}' 2>/dev/null || echo 0)\necho $((n + 1)) > '${count}'\n` +
        `[ "$n" -lt ${failures} ] && exit 1\nexec soffice "$@"\n`,
      { mode: 0o755 },
    );
    return script;
  }

  it('is waited for by a request, which converts once a later start succeeds', async () => {
    const app = start({ instances: 1, startTimeoutMs: 3000, soffice: flakySoffice('once', 1) });
    const res = await tool(app, 'word-to-pdf', office('jod-test.docx'));
    expect(res.status).toBe(200);
    expect(words(textOf(res.body as Buffer))).toEqual(['test', 'document']);
  });

  it('answers 503 not_available only when no listener can come back', async () => {
    const app = start({ instances: 1, startTimeoutMs: 3000, soffice: flakySoffice('never', 1_000_000) });
    const res = await tool(app, 'word-to-pdf', office('jod-test.docx'));
    expect(res.status).toBe(503);
    expect(jsonOf(res.body as Buffer).error.code).toBe('not_available');
  });
});

describe('one listener in trouble', () => {
  let app: OfficeApp;
  beforeAll(async () => {
    // One listener, a short job limit, one job at a time and one waiting: every fault is visible.
    app = start(
      { instances: 1, restartAfter: 0, jobTimeoutMs: 4000 },
      { QUEUE_CONCURRENCY: '1', QUEUE_MAX_WAITING: '1' },
    );
    await app.engine.start();
  });

  it('tries a job again on a fresh listener when soffice is killed mid-job, and the next one succeeds', async () => {
    const before = app.engine.restarts.crash;
    const pending = tool(app, 'word-to-pdf', heavy);
    await until(() => app.engine.listenerPids().some((l) => l.busy), 60_000);
    await new Promise((r) => setTimeout(r, 300));
    const [listener] = app.engine.listenerPids();
    pids.add(listener!.pid);
    process.kill(-listener!.pid, 'SIGKILL');
    const res = await pending;
    // Tried again on a fresh listener, where this document runs past the job's time, as it always does.
    expect(res.status).toBe(504);
    expect(jsonOf(res.body as Buffer).error.code).toBe('timeout');
    expect(app.engine.restarts.crash).toBe(before + 1);
    const next = await tool(app, 'word-to-pdf', office('jod-test.docx'));
    expect(next.status).toBe(200);
    expect(words(textOf(next.body as Buffer))).toEqual(['test', 'document']);
    expect(app.engine.listenerPids()[0]!.pid).not.toBe(listener!.pid);
  });

  it('calls a document damaged when LibreOffice stops on it twice', async () => {
    // jod-test.docx with its third zip entry's local header offset pointed past the end: soffice dies on it.
    const bytes = readFileSync(office('jod-test.docx'));
    let entry = -1;
    for (let n = 0; n < 3; n++) entry = bytes.indexOf('PK\x01\x02', entry + 1, 'latin1');
    bytes.writeUInt32LE(1_000_000, entry + 42);
    const path = join(scratch, 'kills-soffice.docx');
    writeFileSync(path, bytes);
    const before = app.engine.restarts.crash;
    const res = await tool(app, 'word-to-pdf', path);
    expect(res.status).toBe(422);
    expect(jsonOf(res.body as Buffer).error).toEqual({
      code: 'damaged_input',
      message: 'The document is damaged and could not be read.',
    });
    expect(app.engine.restarts.crash).toBe(before + 2);
    const next = await tool(app, 'word-to-pdf', office('jod-test.docx'));
    expect(next.status).toBe(200);
  });

  it('kills and restarts the listener when a job runs past its time', async () => {
    const before = app.engine.restarts.timeout;
    const old = app.engine.listenerPids()[0]!.pid;
    pids.add(old);
    const started = Date.now();
    const res = await tool(app, 'word-to-pdf', heavy);
    expect(res.status).toBe(504);
    expect(jsonOf(res.body as Buffer).error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(app.engine.restarts.timeout).toBe(before + 1);
    await until(() => !running(old), 60_000);
    // Gotenberg's route says the same in Gotenberg's words.
    const g = await request(app).post('/forms/libreoffice/convert').attach('files', heavy);
    expect(g.status).toBe(503);
    expect(g.text).toBe('Service Unavailable');
    const next = await tool(app, 'ppt-to-pdf', office('jod-test.pptx'));
    expect(next.status).toBe(200);
    const path = join(scratch, 'after-timeout.pdf');
    writeFileSync(path, next.body as Buffer);
    expect(pdfPages(path)).toBe(1);
  });

  it('stops the job of a client that goes away', async () => {
    const before = app.engine.restarts.timeout;
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const form = new FormData();
      form.append('files', await openAsBlob(heavy), 'heavy.docx');
      const client = new AbortController();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/forms/libreoffice/convert`;
      const call = fetch(url, { method: 'POST', body: form, signal: client.signal }).catch((e: unknown) => e);
      await until(() => app.engine.listenerPids().some((l) => l.busy), 60_000);
      client.abort();
      await call;
      // Its listener is killed (and restarted) rather than left converting for nobody.
      await until(() => app.engine.restarts.timeout === before + 1, 60_000);
      const next = await tool(app, 'word-to-pdf', office('jod-test.odt'));
      expect(next.status).toBe(200);
      expect(words(textOf(next.body as Buffer))).toEqual(['test', 'document']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('answers busy with Retry-After when the queue is full', async () => {
    // One running, one waiting, the third is turned away at once.
    const first = tool(app, 'word-to-pdf', heavy);
    await until(() => app.engine.listenerPids().some((l) => l.busy), 60_000);
    const second = tool(app, 'word-to-pdf', office('jod-test.docx'));
    await new Promise((r) => setTimeout(r, 200));
    const third = await tool(app, 'word-to-pdf', office('jod-test.odt'));
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('5');
    expect(jsonOf(third.body as Buffer).error.code).toBe('busy');
    const g = await request(app).post('/forms/libreoffice/convert').attach('files', office('jod-test.odt'));
    expect(g.status).toBe(429);
    expect(g.text).toBe('Too Many Requests');
    expect(g.headers['retry-after']).toBe('5');
    // The heavy one times out (and restarts the listener); the waiting one still converts.
    expect((await first).status).toBe(504);
    const waited = await second;
    expect(waited.status).toBe(200);
    expect(words(textOf(waited.body as Buffer))).toEqual(['test', 'document']);
  });
});
