/**
 * Metrics as an operator sees them: the real Prometheus scrapes a whole local stack with the config
 * that infra/prometheus/config.ts renders (the committed prometheus.yml is the same config for compose),
 * evaluates infra/prometheus/alerts.yml on it, and answers for the series that a few real tool calls
 * leave behind. promtool checks the committed config, the rules and their unit tests.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, services, type ServiceName } from '@quire/catalog';
import { composeConfig, prometheusConfig, type ScrapeTargets } from '../../infra/prometheus/config.ts';
import { freePort } from '../../gateway/test/firebase-emulator.ts';
import { repoRoot } from '../../scripts/stack.ts';
import { corpusDir, corpusFiles } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { startScratchStack, type ScratchStack } from '../lib/stack.ts';

const infra = join(repoRoot, 'infra', 'prometheus');
const jobs = ['gateway', ...Object.keys(services)];

function promtool(...args: string[]) {
  const r = spawnSync('promtool', args, { cwd: infra, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('the committed Prometheus files', () => {
  it('prometheus.yml is the config rendered from the catalog, for compose', async () => {
    expect(await readFile(join(infra, 'prometheus.yml'), 'utf8')).toBe(composeConfig());
  });

  it('promtool accepts the config and its rules', () => {
    const config = promtool('check', 'config', 'prometheus.yml');
    expect(config.output).toContain('SUCCESS: 1 rule files found');
    expect(config.status).toBe(0);
    const rules = promtool('check', 'rules', 'alerts.yml');
    expect(rules.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(rules.status).toBe(0);
  });

  it('every alert fires on what it should, and not on what it should not', () => {
    const tests = promtool('test', 'rules', 'alerts.test.yml');
    expect(tests.output).toContain('SUCCESS');
    expect(tests.status).toBe(0);
  });

  it('counts as failures on our side exactly the error codes with a 5xx status', async () => {
    const rules = await readFile(join(infra, 'alerts.yml'), 'utf8');
    const pattern = /record: service:quire_server_errors:increase10m\s+expr: .*outcome=~"([^"]+)"/.exec(rules)?.[1];
    const codes = pattern?.split('|').filter((c) => /^[a-z_]+$/.test(c));
    const serverSide = Object.entries(errorCodes).filter(([, e]) => e.status >= 500);
    expect(codes?.sort()).toEqual(serverSide.map(([code]) => code).sort());
  });
});

/** Stops a process group: SIGTERM, then SIGKILL when it has not exited within `graceMs`. */
async function stopGroup(proc: ChildProcess, graceMs: number): Promise<void> {
  const exited = new Promise<void>((r) =>
    proc.exitCode !== null || proc.signalCode !== null ? r() : proc.once('exit', () => r()),
  );
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-proc.pid!, signal);
    } catch {
      // gone already
    }
  };
  kill('SIGTERM');
  const late = await Promise.race([exited.then(() => false), new Promise((r) => setTimeout(() => r(true), graceMs))]);
  if (late) kill('SIGKILL');
  await exited;
}

/** Polls until `check` returns a value, or fails with the last thing it said once `ms` have passed. */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const got = await check();
      if (got !== undefined) return got;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${ms / 1000} s (${String(last ?? 'no error')})`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

describe('Prometheus scraping a running stack', () => {
  let stack: ScratchStack;
  let prometheus: ChildProcess | undefined;
  let promUrl: string;
  let killTimer: NodeJS.Timeout | undefined;
  const resultBytes: number[] = [];
  let downloads: string | undefined;

  async function api<T>(path: string): Promise<T> {
    const res = await fetch(`${promUrl}/api/v1/${path}`, { signal: AbortSignal.timeout(10_000) });
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`${path}: ${body.error}`);
    return body.data;
  }
  const query = (expr: string) =>
    api<{ result: Sample[] }>(`query?query=${encodeURIComponent(expr)}`).then((d) => d.result);
  /** The series of `expr` once there are `count` of them, by the value of `label`. */
  const seriesBy = (expr: string, label: string, count: number) =>
    until(`${count} series of ${expr}`, async () => {
      const result = await query(expr);
      if (result.length < count) return undefined;
      return Object.fromEntries(result.map((s) => [s.metric[label] ?? '', Number(s.value[1])]));
    });

  beforeAll(async () => {
    // A short path: Chromium's socket in the renderer's work folder must fit in 108 bytes.
    stack = await startScratchStack('prom', {
      portOffset: 21_000,
      authEmulator: false,
      // Each engine replaced after one job, so that one call per engine shows up as a restart.
      env: { OFFICE_RESTART_AFTER: '1', RENDERER_RESTART_AFTER_JOBS: '1' },
    });
    const hostOf = (url: string | undefined) => [new URL(url!).host];
    const targets = { gateway: hostOf(stack.gatewayUrl) } as ScrapeTargets;
    for (const name of Object.keys(services) as ServiceName[]) targets[name] = hostOf(stack.serviceUrls[name]);
    await mkdir(join(stack.runDir, 'prometheus'));
    const config = join(stack.runDir, 'prometheus', 'prometheus.yml');
    await writeFile(
      config,
      prometheusConfig(targets, { scrapeInterval: '1s', ruleFiles: [join(infra, 'alerts.yml')] }),
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(stack.runDir, 'prometheus', 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let errors = '';
    prometheus.stderr!.on('data', (d: Buffer) => (errors = `${errors}${d.toString()}`.slice(-4000)));
    // Whatever happens to this file's hooks, Prometheus does not outlive it by long.
    killTimer = setTimeout(() => void (prometheus && stopGroup(prometheus, 5000)), 15 * 60_000).unref();
    await until('Prometheus ready', async () => {
      if (prometheus!.exitCode !== null) throw new Error(`prometheus exited: ${errors}`);
      const res = await fetch(`${promUrl}/-/ready`).catch(() => undefined);
      return res?.ok ? true : undefined;
    });

    // A few real calls: one per engine, and a caller's mistake.
    const pdf = join(corpusDir, 'pdf', 'pdfminer-simple1.pdf');
    const rotated = await runTool(stack.url, 'rotate-pdf', [pdf], { angle: '90' });
    const word = await runTool(stack.url, 'word-to-pdf', [join(corpusDir, 'office', 'jod-test.odt')]);
    const page = await runTool(stack.url, 'html-to-pdf', [join(corpusDir, 'html', 'gotenberg-pages-12.html')]);
    for (const r of [rotated, word, page]) resultBytes.push((await stat(r.path)).size);
    downloads = dirname(rotated.path);
    const locked = corpusFiles().find((f) => f.file === 'pdf-encrypted/pdfminer-aes-128.pdf')!;
    const wrong = await post(`${stack.url}/api.php?tool=pdf-unlock`, [locked.path], { password: 'not-it' });
    expect(wrong.body.error?.code).toBe('wrong_password');
    // And one job, run by the gateway's worker to its end, its result kept like the calls'.
    const made = await post(`${stack.url}/api/v1/jobs?tool=pdf-metadata-cleaner`, [pdf]);
    expect(made.status).toBe(202);
    const id = (made.body as { id?: string }).id!;
    await until('the job done', async () => {
      const job = (await (await fetch(`${stack.url}/api/v1/jobs/${id}`)).json()) as { state: string };
      if (job.state === 'failed' || job.state === 'cancelled') throw new Error(`job ${job.state}`);
      return job.state === 'done' ? job : undefined;
    });
    const result = await fetch(`${stack.url}/api/v1/jobs/${id}/result`);
    expect(result.status).toBe(200);
    const bytes = Buffer.from(await result.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    resultBytes.push(bytes.byteLength);
  });

  afterAll(async () => {
    clearTimeout(killTimer);
    if (prometheus) await stopGroup(prometheus, 10_000);
    await stack?.remove();
    if (downloads) await rm(downloads, { recursive: true, force: true });
  });

  it('scrapes the gateway and every service of the catalog', async () => {
    const up = await until('every target up', async () => {
      const { activeTargets } = await api<{ activeTargets: { labels: { job: string }; health: string }[] }>('targets');
      const healthy = activeTargets.filter((t) => t.health === 'up').map((t) => t.labels.job);
      return healthy.length === jobs.length ? healthy : undefined;
    });
    expect(up.sort()).toEqual([...jobs].sort());
    // A scrape that a busy machine makes late counts as down for that moment: waited for, all up at once.
    const all = await until('every target up in one query', async () => {
      const by = await seriesBy('up', 'job', jobs.length);
      return Object.values(by).every((v) => v === 1) ? by : undefined;
    });
    expect(all).toEqual(Object.fromEntries(jobs.map((j) => [j, 1])));
  });

  it('counts each call by tool and outcome, at the gateway and at the service that ran it', async () => {
    expect(await seriesBy('quire_requests_total{tool="rotate-pdf",outcome="ok"}', 'service', 2)).toEqual({
      gateway: 1,
      'pdf-editor': 1,
    });
    expect(await seriesBy('quire_requests_total{tool="pdf-unlock",outcome="wrong_password"}', 'service', 2)).toEqual({
      gateway: 1,
      'pdf-editor': 1,
    });
    // The gateway reaches the office service by the tool's own route, as every service.
    expect(await seriesBy('quire_requests_total{outcome="ok",service="office"}', 'tool', 1)).toEqual({
      'word-to-pdf': 1,
    });
    expect(await seriesBy('quire_requests_total{outcome="ok",service="renderer"}', 'tool', 1)).toEqual({
      'html-to-pdf': 1,
    });
    expect(await seriesBy('quire_request_duration_seconds_count{tool="rotate-pdf"}', 'service', 2)).toEqual({
      gateway: 1,
      'pdf-editor': 1,
    });
  });

  it('shows requests in flight everywhere, and each service queue with its capacity', async () => {
    expect(await seriesBy('quire_requests_in_flight', 'service', jobs.length)).toEqual(
      Object.fromEntries(jobs.map((j) => [j, 0])),
    );
    const names = Object.keys(services);
    expect(await seriesBy('quire_queue_size', 'service', names.length)).toEqual(
      Object.fromEntries(names.map((n) => [n, 0])),
    );
    expect(await seriesBy('quire_queue_capacity', 'service', names.length)).toEqual(
      Object.fromEntries(names.map((n) => [n, 20])),
    );
  });

  it('counts engine restarts under one name: LibreOffice and Chromium, each replaced after its job', async () => {
    const planned = await until('a planned restart of each engine', async () => {
      const by = await seriesBy('quire_engine_restarts_total{reason="after_jobs"}', 'engine', 2);
      return by.libreoffice! >= 1 && by.chromium! >= 1 ? by : undefined;
    });
    expect(Object.keys(planned).sort()).toEqual(['chromium', 'libreoffice']);
    const services = await seriesBy('quire_engine_restarts_total', 'service', 2);
    expect(Object.keys(services).sort()).toEqual(['office', 'renderer']);
    // Nothing crashed or hung: those series exist, at 0.
    const unplanned = await query('quire_engine_restarts_total{reason=~"crash|timeout"}');
    expect(unplanned.map((s) => `${s.metric.engine} ${s.metric.reason} ${s.value[1]}`).sort()).toEqual([
      'chromium crash 0',
      'chromium timeout 0',
      'libreoffice crash 0',
      'libreoffice timeout 0',
    ]);
  });

  it("counts the results saved and kept (the calls' and the job's), their bytes and the room left for them", async () => {
    const total = resultBytes.reduce((a, b) => a + b, 0);
    const one = async (expr: string) => (await seriesBy(expr, 'service', 1)).gateway;
    // Three calls and a job.
    expect(await one('quire_results_saved_total')).toBe(4);
    expect(await one('quire_results_stored')).toBe(4);
    expect(await one('quire_results_bytes')).toBe(total);
    const free = (await one('quire_results_disk_free_bytes'))!;
    const size = (await one('quire_results_disk_size_bytes'))!;
    expect(free).toBeGreaterThan(total);
    expect(size).toBeGreaterThan(free);
  });

  it('shows the jobs queue, and the job run: its wait and its duration by tool and outcome', async () => {
    expect(await seriesBy('quire_jobs_queue_depth', 'state', 2)).toEqual({ waiting: 0, active: 0 });
    expect(await seriesBy('quire_job_wait_seconds_count', 'service', 1)).toEqual({ gateway: 1 });
    expect(await seriesBy('quire_job_duration_seconds_count', 'tool', 1)).toEqual({ 'pdf-metadata-cleaner': 1 });
    expect(await seriesBy('quire_job_duration_seconds_count', 'outcome', 1)).toEqual({ ok: 1 });
  });

  it('evaluates every alerting and recording rule without error, and none fires', async () => {
    // A scrape made late by a busy machine reads as a target down for a moment, and its alert turns
    // pending until the next scrape: the rules are waited for in a state with none pending or firing.
    // One that stays so fails, naming it.
    const groups = await until('every rule evaluated, none pending or firing', async () => {
      const { groups } = await api<{
        groups: { rules: { name: string; health: string; lastError?: string; state?: string }[] }[];
      }>('rules');
      const rules = groups.flatMap((g) => g.rules);
      if (rules.length === 0 || rules.some((r) => r.health === 'unknown')) return undefined;
      const alerting = rules.filter((r) => r.state === 'firing' || r.state === 'pending').map((r) => r.name);
      if (alerting.length > 0) throw new Error(`alerting: ${alerting.join(', ')}`);
      return rules;
    });
    expect(groups.filter((r) => r.health !== 'ok').map((r) => `${r.name}: ${r.lastError}`)).toEqual([]);
    expect(groups.filter((r) => r.state === 'firing' || r.state === 'pending').map((r) => r.name)).toEqual([]);
  });

  it("answers every query of the Grafana dashboard, with data for each service's requests", async () => {
    const dashboard = JSON.parse(
      await readFile(join(repoRoot, 'infra', 'grafana', 'dashboards', 'quire.json'), 'utf8'),
    ) as { panels: { title: string; targets?: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    for (const { expr } of exprs) {
      for (const service of jobs) {
        // Grafana's own variables, as it would fill them in.
        await query(expr.replaceAll('$service', service).replaceAll('$__rate_interval', '1m'));
      }
    }
    const requests = exprs.find((e) => e.panel === 'Requests /s by outcome')!.expr;
    // A rate needs two scrapes of a series: on a loaded machine they may lag the calls by a few seconds.
    const byOutcome = await seriesBy(
      requests.replaceAll('$service', 'pdf-editor').replaceAll('$__rate_interval', '5m'),
      'outcome',
      2,
    );
    expect(Object.keys(byOutcome).sort()).toEqual(['ok', 'wrong_password']);
  });
});
