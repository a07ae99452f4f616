import type { StatsFs } from 'node:fs';
import { readdir, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import client from 'prom-client';
import { createMetrics } from '@quire/base';

/**
 * The kit's request metrics, plus the results: how many were saved, how many are kept and their bytes,
 * and the room left on the disk that holds them (read at each scrape).
 */
export function createGatewayMetrics(resultsDir: string) {
  const metrics = createMetrics('gateway');
  const registers = [metrics.registry];
  const diskGauge = (name: string, help: string, bytes: (s: StatsFs) => number) =>
    new client.Gauge({
      name,
      help,
      registers,
      async collect() {
        const s = await statfs(resultsDir).catch(() => undefined);
        if (s) this.set(bytes(s));
      },
    });
  return {
    ...metrics,
    resultsSaved: new client.Counter({
      name: 'quire_results_saved_total',
      help: 'Results saved for download',
      registers,
    }),
    resultsStored: new client.Gauge({
      name: 'quire_results_stored',
      help: 'Results waiting to be downloaded',
      registers,
    }),
    resultsBytes: new client.Gauge({
      name: 'quire_results_bytes',
      help: 'Bytes of the files in the results folder',
      registers,
      async collect() {
        this.set(await folderBytes(resultsDir));
      },
    }),
    jobWait: new client.Histogram({
      name: 'quire_job_wait_seconds',
      help: 'How long jobs waited in the queue before a worker took them',
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 1800],
      registers,
    }),
    jobDuration: new client.Histogram({
      name: 'quire_job_duration_seconds',
      help: 'How long jobs ran, by tool (or workflow) and outcome (ok, or the error code)',
      labelNames: ['tool', 'outcome'],
      buckets: [0.5, 1, 5, 15, 60, 300, 1800, 3600],
      registers,
    }),
    diskFree: diskGauge(
      'quire_results_disk_free_bytes',
      'Bytes free for the gateway on the disk that holds the results',
      (s) => s.bavail * s.bsize,
    ),
    diskSize: diskGauge(
      'quire_results_disk_size_bytes',
      'Size of the disk that holds the results',
      (s) => s.blocks * s.bsize,
    ),
  };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;

/** The job queue's depth, read at each scrape: jobs waiting for a worker, and jobs running. */
export function watchJobQueue(
  metrics: GatewayMetrics,
  depth: () => Promise<{ waiting: number; active: number }>,
): void {
  new client.Gauge({
    name: 'quire_jobs_queue_depth',
    help: 'Jobs in the shared queue, by state (waiting for a worker, or active)',
    labelNames: ['state'],
    registers: [metrics.registry],
    async collect() {
      const d = await depth().catch(() => undefined);
      if (!d) return;
      this.set({ state: 'waiting' }, d.waiting);
      this.set({ state: 'active' }, d.active);
    },
  });
}

async function folderBytes(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(
    names.map((name) =>
      stat(join(dir, name)).then(
        (s) => (s.isFile() ? s.size : 0),
        () => 0,
      ),
    ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}
