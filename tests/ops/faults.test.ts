/**
 * Faults met through the whole stack (nginx, the gateway, the services), as an operator meets them: an
 * engine killed in the middle of a job (LibreOffice during word-to-pdf, Chromium during html-to-pdf,
 * Ghostscript during pdf-compress), Redis and PostgreSQL stopped and started again, a results directory
 * that cannot be written. Each time the client gets the contract's error (or, where the design allows,
 * a good result), the next job succeeds, and no gateway or service process was restarted to get there.
 * The services' own tests kill engines in-process; here the answer is checked as a client gets it.
 */
import { rename, rm, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, type ErrorCode } from '@quire/catalog';
import { startPostgres, type Postgres } from '../../gateway/test/postgres.ts';
import { startRedis, type RedisServer } from '../../gateway/test/redis.ts';
import { writeHeavyDocx } from '../../services/office/test/helpers.ts';
import type { Stack } from '../../scripts/stack.ts';
import { corpusDir } from '../lib/corpus.ts';
import { post, type CallResult } from '../lib/http.ts';
import { pageCount, qpdfCheck, text } from '../lib/pdf.ts';
import { commandLine, descendants, proc, stillRunning, type Proc } from '../lib/procs.ts';
import { startScratchStack, type ScratchStack } from '../lib/stack.ts';

const corpus = (path: string) => join(corpusDir, path);
const fourPages = corpus('pdf/pypdf-pdflatex-4-pages.pdf');

/** Polls until `check` gives a value; fails naming what it waited for. */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The contract's error: one sentence, no trace, the status its code has; the code is returned. */
function contractError(r: CallResult): ErrorCode {
  expect(Object.keys(r.body)).toEqual(['error']);
  const code = r.body.error!.code as ErrorCode;
  expect(Object.hasOwn(errorCodes, code), code).toBe(true);
  expect(r.status).toBe(errorCodes[code].status);
  expect(r.body.error!.message).toMatch(/^[^\n]{10,300}$/);
  expect(r.body.error!.message).not.toMatch(/\/tmp\/|\/work\/|ECONN|Error:|at \w+ \(/);
  return code;
}

/** The gateway's and every service's processes, to check at the end that none was restarted. */
function stackProcesses(s: Stack): Proc[] {
  return Object.values(s.instances).flatMap((list) => list.map((i) => proc(i.pid)!));
}

let downloads = 0;
/** Downloads a result through nginx into `dir`. */
async function fetchResult(s: Stack, r: CallResult, dir: string): Promise<string> {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const res = await fetch(`${s.url}/uploads/${encodeURIComponent(r.body.download!)}`);
  expect(res.status).toBe(200);
  const path = join(dir, `result-${++downloads}.pdf`);
  await writeFile(path, Buffer.from(await res.arrayBuffer()));
  return path;
}

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('with Redis and PostgreSQL', () => {
  let redis: RedisServer | undefined;
  let postgres: Postgres | undefined;
  let stack: ScratchStack | undefined;
  let processes: Proc[];
  /** What a process that stopped said last. */
  const crashes: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    postgres = await startPostgres();
    stack = await startScratchStack('faults', {
      portOffset: 24_500,
      services: ['pdf-editor', 'office', 'renderer'],
      authEmulator: false,
      env: {
        REDIS_URL: redis.url,
        DATABASE_URL: postgres.url,
        RATE_LIMIT_PER_MINUTE: '0',
        JOB_TIMEOUT_MS: '60000',
        LOG_LEVEL: 'warn',
      },
    });
    processes = stackProcesses(stack);
    void stack.crashed.then((what) => crashes.push(what));
  });

  afterAll(async () => {
    await stack?.remove();
    await redis?.close();
    await postgres?.stop();
  });

  it('LibreOffice killed during word-to-pdf: the job is tried again on a fresh listener, then the next document converts', async () => {
    const s = stack!;
    const heavy = join(s.runDir, 'heavy.docx');
    // Far more work than a listener does in the moments before it is killed.
    await writeHeavyDocx(heavy, 1500);
    const job = post(`${s.url}/api/v1/tools/word-to-pdf`, [heavy]);
    const listener = await until('a busy LibreOffice listener', async () => {
      const health = (await json(`${s.serviceUrls.office}/health`)).body as {
        engines: { instances: { state: string; pid?: number }[] };
      };
      return health.engines.instances.find((i) => i.state === 'busy')?.pid;
    });
    process.kill(-listener, 'SIGKILL');
    const r = await job;
    // The second try either finishes this long document within the job's time or runs out of it.
    if (r.status === 200) expect(pageCount(await fetchResult(s, r, s.runDir))).toBeGreaterThan(100);
    else expect(contractError(r)).toBe('timeout');

    const next = await post(`${s.url}/api/v1/tools/word-to-pdf`, [corpus('office/jod-test.docx')]);
    expect(text(await fetchResult(s, next, s.runDir))).toMatch(/^\s*Test Document\s*$/);
  });

  it('Chromium killed during html-to-pdf: a 500 internal, then the next page prints', async () => {
    const s = stack!;
    const busy = join(s.runDir, 'busy.html');
    await writeFile(
      busy,
      '<!doctype html><p>busy</p><script>const t = Date.now(); while (Date.now() - t < 20000) {}</script>',
    );
    const renderer = s.instances.renderer![0]!.pid;
    const job = post(`${s.url}/api/v1/tools/html-to-pdf`, [busy]);
    await until('the job on the browser', async () => {
      const health = (await json(`${s.serviceUrls.renderer}/health`)).body as { queue: { running: number } };
      return health.queue.running > 0 ? true : undefined;
    });
    // The browser's main process: the one Chromium process without a --type.
    const browser = await until('the browser process', () =>
      descendants(renderer).find((p) => /chrom/.test(p.comm) && !commandLine(p.pid).includes('--type=')),
    );
    process.kill(browser.pid, 'SIGKILL');
    const r = await job;
    expect(contractError(r)).toBe('internal');

    const next = await post(`${s.url}/api/v1/tools/html-to-pdf`, [corpus('html/jod-test.html')]);
    expect(text(await fetchResult(s, next, s.runDir))).toMatch(/\S/);
  });

  it('Ghostscript killed during pdf-compress: a result from the other candidates, then the next compression succeeds', async () => {
    const s = stack!;
    const input = corpus('pdf/pdfjs-tracemonkey.pdf');
    const editor = s.instances['pdf-editor']![0]!.pid;
    const job = post(`${s.url}/api/v1/tools/pdf-compress`, [input]);
    const gs = await until('Ghostscript at work', () => descendants(editor).find((p) => p.comm === 'gs'));
    process.kill(-gs.pid, 'SIGKILL');
    const r = await job;
    // Compression keeps to the candidates that were made: Ghostscript's is missing, the job still succeeds.
    const path = await fetchResult(s, r, s.runDir);
    expect(r.body.properties?.candidate).not.toMatch(/ghostscript/);
    expect([0, 3]).toContain(qpdfCheck(path));
    expect(pageCount(path)).toBe(pageCount(input));
    expect((await readFile(path)).length).toBeLessThanOrEqual((await readFile(input)).length);

    const next = await post(`${s.url}/api/v1/tools/pdf-compress`, [fourPages]);
    expect(pageCount(await fetchResult(s, next, s.runDir))).toBe(4);
  });

  it('Redis stopped: tool runs and downloads answer 503 not_available, and work again once it is back', async () => {
    const s = stack!;
    const before = await post(`${s.url}/api/v1/tools/rotate-pdf`, [fourPages]);
    expect(before.status).toBe(200);
    await redis!.stop();
    try {
      const during = await post(`${s.url}/api/v1/tools/rotate-pdf`, [fourPages]);
      expect(contractError(during)).toBe('not_available');
      const download = await json(`${s.url}/uploads/${before.body.download}`);
      expect(download.status).toBe(503);
      expect((download.body.error as { code: string }).code).toBe('not_available');
    } finally {
      await redis!.start();
    }
    // The gateway reconnects by itself; Redis kept nothing, so new results work and old ones are gone.
    const after = await until('a run after Redis is back', async () => {
      const r = await post(`${s.url}/api/v1/tools/rotate-pdf`, [fourPages]);
      return r.status === 200 ? r : undefined;
    });
    expect(pageCount(await fetchResult(s, after, s.runDir))).toBe(4);
    expect((await fetch(`${s.url}/uploads/${before.body.download}`)).status).toBe(404);
  });

  it('PostgreSQL stopped: usage and site data answer a contract error, and recover once it is back', async () => {
    const s = stack!;
    const usage = async () => json(`${s.url}/api/v1/usage`);
    const counted = ((await usage()).body.stats as Record<string, number>)['rotate-pdf']!;
    const contact = (message: string) =>
      json(`${s.url}/api/v1/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', message }),
      });
    await postgres!.halt();
    let ranDuring = false;
    try {
      for (const r of [
        await usage(),
        await contact('while the database is down'),
        await json(`${s.url}/api/v1/newsletter`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'ada@example.com' }),
        }),
      ]) {
        expect(contractError({ status: r.status, headers: new Headers(), body: r.body })).toMatch(
          /^(internal|not_available)$/,
        );
      }
      // A tool run needs the database only to count itself: it fails cleanly or succeeds whole.
      const run = await post(`${s.url}/api/v1/tools/rotate-pdf`, [fourPages]);
      if (run.status === 200) {
        ranDuring = true;
        expect(pageCount(await fetchResult(s, run, s.runDir))).toBe(4);
      } else {
        expect(contractError(run)).toMatch(/^(internal|not_available)$/);
      }
    } finally {
      await postgres!.start();
    }
    const back = await until('usage after PostgreSQL is back', async () => {
      const r = await usage();
      return r.status === 200 ? (r.body.stats as Record<string, number>) : undefined;
    });
    expect(back['rotate-pdf']).toBe(counted + (ranDuring ? 1 : 0));
    const run = await post(`${s.url}/api/v1/tools/rotate-pdf`, [fourPages]);
    expect(pageCount(await fetchResult(s, run, s.runDir))).toBe(4);
    expect(((await usage()).body.stats as Record<string, number>)['rotate-pdf']).toBe(back['rotate-pdf']! + 1);
    expect((await contact('after the outage')).status).toBe(201);
  });

  it('kept every gateway and service process through all of it', () => {
    expect(crashes).toEqual([]);
    for (const p of processes) expect(stillRunning(p), `${p.comm} ${p.pid}`).toBe(true);
  });
});

describe('with results kept on the local disk', () => {
  let stack: ScratchStack | undefined;

  beforeAll(async () => {
    stack = await startScratchStack('faults-disk', {
      portOffset: 24_600,
      services: ['pdf-editor'],
      authEmulator: false,
      env: { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
    });
  });

  afterAll(async () => {
    await stack?.remove();
  });

  it('a results directory that cannot be written: a 500 internal, uncounted; then it is made again', async () => {
    const s = stack!;
    const processes = stackProcesses(s);
    const results = join(s.runDir, 'data', 'results');
    const usage = async () =>
      ((await json(`${s.url}/api/v1/usage`)).body.stats as Record<string, number>)['rotate-pdf']!;
    const first = await post(`${s.url}/api/v1/tools/rotate-pdf`, [fourPages]);
    expect(pageCount(await fetchResult(s, first, s.runDir))).toBe(4);
    const counted = await usage();

    // As root, permissions stop nothing: the directory is replaced by a file, where nothing can be written.
    await rename(results, `${results}.aside`);
    await writeFile(results, 'not a directory');
    const refused = await post(`${s.url}/api/v1/tools/rotate-pdf`, [fourPages]);
    expect(contractError(refused)).toBe('internal');
    expect(await usage()).toBe(counted);

    // Writable again, though the directory is gone: the gateway makes it anew, without a restart.
    await rm(results);
    const again = await post(`${s.url}/api/v1/tools/rotate-pdf`, [fourPages]);
    expect(pageCount(await fetchResult(s, again, s.runDir))).toBe(4);
    expect(await usage()).toBe(counted + 1);
    for (const p of processes) expect(stillRunning(p), `${p.comm} ${p.pid}`).toBe(true);
  });
});
