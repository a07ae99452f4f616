/**
 * Jobs on the real queue (BullMQ on a Redis of the bench's own, append-only), through the whole stack:
 * 1. Throughput: 40 small Office documents to PDF as batch jobs (of the catalog's batch size) against 40
 *    synchronous calls, as many at once as the workers run jobs, in turn in the same run. Target: the
 *    batches at least as fast.
 * 2. Queue overhead: a job's wait from its record's creation to a worker's start, on an idle queue,
 *    p50 (target ≤ 20 ms).
 * 3. Under load: 50 clients submitting jobs for 60 s (BENCH_LOAD_SECONDS), Redis stopped and started
 *    again half-way. Every accepted job must end (done, or failed with a contract error), none may be
 *    run twice (the workers' count of jobs taken equals the jobs accepted), and refusals are 429s.
 * 4. A 200-file batch, as ten batch jobs of 20 submitted together, ends with progress that moves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants } from '@quire/catalog';
import { startStack } from '../scripts/stack.ts';
import { corpus, median, time, type BenchReport } from './lib.ts';

/** Public port 32080, gateway 27100, beside the tests' and the other benches' stacks. */
const portOffset = 24_500;
const redisPort = 26_390;
const workers = 2;
const loadSeconds = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const clients = 50;
const rounds = 5;

const documents = [
  'jod-test.docx',
  'jod-test.odt',
  'textract-raw_text.odt',
  'gotenberg-Special_Chars_ß.docx',
  'jod-test.rtf',
];
const officeFiles = Array.from({ length: 40 }, (_, i) => join(corpus, 'office', documents[i % documents.length]!));
const smallPdf = join(corpus, 'pdf/qpdf-11-pages.pdf');

interface JobView {
  id: string;
  state: string;
  createdAt: string;
  startedAt?: string;
  progress: { files: { done: number; total: number } };
  error?: { code: string };
}

async function form(files: string[], name = (i: number) => `doc-${i}`): Promise<FormData> {
  const body = new FormData();
  for (const [i, f] of files.entries())
    body.append('file', await openAsBlob(f), `${name(i)}${f.slice(f.lastIndexOf('.'))}`);
  return body;
}

async function submit(base: string, tool: string, files: string[]): Promise<{ status: number; job?: JobView }> {
  const res = await fetch(`${base}/api/v1/jobs?tool=${tool}`, { method: 'POST', body: await form(files) });
  const text = await res.text();
  return { status: res.status, job: res.status === 202 ? (JSON.parse(text) as JobView) : undefined };
}

/** Polls a job until it ends; each distinct files-done count seen, with when it was seen. */
async function waitJob(base: string, id: string, giveUpMs: number, moves: number[] = []): Promise<JobView> {
  const deadline = Date.now() + giveUpMs;
  let last = -1;
  for (;;) {
    const res = await fetch(`${base}/api/v1/jobs/${id}`).catch(() => undefined);
    if (res?.ok) {
      const job = (await res.json()) as JobView;
      if (job.progress.files.done !== last) moves.push(Date.now());
      last = job.progress.files.done;
      if (['done', 'failed', 'cancelled'].includes(job.state)) return job;
    } else if (res && res.status !== 503 && res.status !== 500) {
      throw new Error(`job ${id.slice(0, 6)}: ${res.status}`);
    }
    if (Date.now() > deadline) throw new Error(`job ${id.slice(0, 6)} did not end`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function syncCall(base: string, file: string): Promise<void> {
  const res = await fetch(`${base}/api/v1/tools/word-to-pdf`, { method: 'POST', body: await form([file]) });
  if (!res.ok) throw new Error(`word-to-pdf: ${res.status} ${await res.text()}`);
}

async function eachAtMost<T>(items: T[], limit: number, work: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

function chunks<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/** A redis-server of the bench's own, append-only in `dir`, so that a restart keeps what was queued. */
async function startRedis(dir: string): Promise<ChildProcess> {
  const args = ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--dir', dir];
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const pong = await new Promise<boolean>((r) => {
      const c = spawn('redis-cli', ['-p', String(redisPort), 'ping'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString()));
      c.on('close', () => r(out.includes('PONG')));
    });
    if (pong) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('redis-server did not start');
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Jobs the workers took, from the gateway's metrics. */
async function jobsTaken(gateway: string): Promise<number> {
  const text = await (await fetch(`${gateway}/metrics`)).text();
  return Number(/^quire_job_wait_seconds_count(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? NaN);
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)]!;

export async function benchJobs(): Promise<BenchReport> {
  const runDir = await mkdtemp(join(tmpdir(), 'bench-jobs-'));
  let redis = await startRedis(runDir);
  const stack = await startStack({
    runDir,
    portOffset,
    services: ['office', 'pdf-editor'],
    authEmulator: false,
    env: {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      QUEUE_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      JOBS_CONCURRENCY: String(workers),
      JOBS_PER_CLIENT: '20',
    },
  });
  try {
    const base = stack.url;
    const size = constants.batchMaxFiles;

    // 1. Throughput.
    await syncCall(base, officeFiles[0]!); // warm-up: the listeners start
    const seconds = { batch: [] as number[], sync: [] as number[] };
    const batches = async () => {
      const jobs = await Promise.all(chunks(officeFiles, size).map((part) => submit(base, 'word-to-pdf', part)));
      const ended = await Promise.all(jobs.map((j) => waitJob(base, j.job!.id, 600_000)));
      if (ended.some((j) => j.state !== 'done')) throw new Error('a batch failed');
    };
    const singles = () => eachAtMost(officeFiles, workers, (f) => syncCall(base, f));
    for (let i = 0; i < rounds; i++) {
      for (const [way, run] of (i % 2
        ? [
            ['sync', singles],
            ['batch', batches],
          ]
        : [
            ['batch', batches],
            ['sync', singles],
          ]) as ['batch' | 'sync', () => Promise<void>][])
        seconds[way].push(await time(run));
    }

    // 2. Queue overhead on an idle queue: one small job at a time.
    const waitsMs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const { job } = await submit(base, 'rotate-pdf', [smallPdf]);
      const ended = await waitJob(base, job!.id, 60_000);
      waitsMs.push(Date.parse(ended.startedAt!) - Date.parse(ended.createdAt));
    }

    // 3. Under load, Redis restarted half-way.
    const takenBefore = await jobsTaken(stack.gatewayUrl);
    const outcomes = { done: 0, failed: 0, refused: 0, otherAnswers: 0, lost: 0 };
    const failures = new Map<string, number>();
    const accepted: string[] = [];
    const end = Date.now() + loadSeconds * 1000;
    const client = async () => {
      while (Date.now() < end) {
        const answer = await submit(base, 'rotate-pdf', [smallPdf]).catch(() => ({ status: 0, job: undefined }));
        if (answer.status === 429) {
          outcomes.refused++;
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        if (!answer.job) {
          outcomes.otherAnswers++;
          failures.set(`submit ${answer.status}`, (failures.get(`submit ${answer.status}`) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 500));
          continue;
        }
        accepted.push(answer.job.id);
        const ended = await waitJob(base, answer.job.id, 300_000).catch(() => undefined);
        if (!ended) outcomes.lost++;
        else if (ended.state === 'done') outcomes.done++;
        else {
          outcomes.failed++;
          const key = ended.error?.code ?? ended.state;
          failures.set(key, (failures.get(key) ?? 0) + 1);
        }
      }
    };
    const restart = (async () => {
      await new Promise((r) => setTimeout(r, (loadSeconds * 1000) / 2));
      await stopProcess(redis);
      redis = await startRedis(runDir);
    })();
    await Promise.all([...Array.from({ length: clients }, client), restart]);
    const takenDuring = (await jobsTaken(stack.gatewayUrl)) - takenBefore;

    // 4. 200 files, as batches of the catalog's size submitted together.
    const pdfs = Array.from({ length: 200 }, () => smallPdf);
    const moves: number[] = [];
    const started = Date.now();
    const big = await Promise.all(chunks(pdfs, size).map((part) => submit(base, 'rotate-pdf', part)));
    const bigEnded = await Promise.all(big.map((j) => waitJob(base, j.job!.id, 900_000, moves)));
    const bigSeconds = (Date.now() - started) / 1000;
    const gaps = moves.slice(1).map((t, i) => (t - moves[i]!) / 1000);
    const filesDone = bigEnded.reduce((n, j) => n + j.progress.files.done, 0);

    const batchS = median(seconds.batch);
    const syncS = median(seconds.sync);
    const p50 = percentile(waitsMs, 0.5);
    const summary = [
      `### Jobs on the queue (BullMQ on Redis, ${workers} workers, whole stack through nginx)`,
      '',
      '| measure | result | target |',
      '|---|---|---|',
      `| 40 Office documents to PDF: batch jobs of ${size} / 40 synchronous calls, ${workers} at once (median of ${rounds}) | ${batchS.toFixed(1)} s / ${syncS.toFixed(1)} s = ${(batchS / syncS).toFixed(2)}× | ≤ 1× |`,
      `| queue overhead (record made → worker started), idle queue, 30 jobs | p50 ${p50} ms, p90 ${percentile(waitsMs, 0.9)} ms | p50 ≤ 20 ms |`,
      `| ${clients} clients for ${loadSeconds} s, Redis restarted half-way | ${accepted.length} accepted: ${outcomes.done} done, ${outcomes.failed} failed, ${outcomes.lost} lost; ${outcomes.refused} refused (429); ${outcomes.otherAnswers} other answers | none lost |`,
      `| jobs the workers took during the load / jobs accepted | ${takenDuring} / ${accepted.length} | equal (none run twice) |`,
      `| 200 files (${big.length} batch jobs submitted together) | ${filesDone} of 200 done in ${bigSeconds.toFixed(1)} s; longest wait between progress moves ${Math.max(...gaps, 0).toFixed(1)} s | all done, progress every few seconds |`,
      '',
      failures.size
        ? `Failures and other answers: ${[...failures].map(([k, n]) => `${k} ×${n}`).join(', ')}.`
        : 'No failures.',
    ].join('\n');
    return {
      name: 'jobs',
      summary,
      data: {
        seconds,
        waitsMs,
        outcomes,
        failures: Object.fromEntries(failures),
        accepted: accepted.length,
        takenDuring,
        bigSeconds,
        gaps,
      },
    };
  } finally {
    await stack.stop();
    await stopProcess(redis);
    await rm(runDir, { recursive: true, force: true });
  }
}
