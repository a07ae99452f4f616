import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serverArgs } from '@quire/base';

export const root = new URL('../', import.meta.url).pathname;
export const corpus = join(root, '../shared/corpus');
export const resultsDir = join(root, 'bench/results');

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Wall time of one async call, in seconds. */
export async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** The peak resident memory of a process, in MB, as the kernel counts it. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Starts one of our services as its own process and waits for its health check. */
export async function startService(
  name: string,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  // A service left on the port by an earlier run would answer the health check and be measured instead.
  const stale = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
  if (stale) throw new Error(`port ${port} already answers: stop what runs there first`);
  const child = spawn(process.execPath, serverArgs(join(root, `services/${name}/src/main.ts`)), {
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not become healthy on port ${port}`);
}

export interface BenchReport {
  name: string;
  summary: string;
  data: unknown;
}

export async function writeReport(report: BenchReport): Promise<void> {
  await mkdir(resultsDir, { recursive: true });
  await writeFile(join(resultsDir, `${report.name}.json`), JSON.stringify(report.data, null, 2));
}

/** Each process's parent, from /proc. */
function parents(): Map<number, { ppid: number; name: string }> {
  const out = new Map<number, { ppid: number; name: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      out.set(Number(entry), { ppid, name });
    } catch {
      // gone already
    }
  }
  return out;
}

/**
 * Samples the resident memory of some processes and everything they start, every `everyMs`: the
 * highest peak (VmHWM) seen of each, by a name the caller gives its roots (`gateway`) and the
 * program's own name below them (`gateway/qpdf`). A child that lives less than a sample is missed.
 */
export function watchMemory(roots: Record<string, number>, everyMs = 50): () => Record<string, number> {
  const peaks: Record<string, number> = {};
  const sample = () => {
    const procs = parents();
    const label = new Map<number, string>(Object.entries(roots).map(([name, pid]) => [pid, name]));
    const labelOf = (pid: number): string | undefined => {
      if (label.has(pid)) return label.get(pid);
      const p = procs.get(pid);
      if (!p || p.ppid <= 1) return undefined;
      const up = labelOf(p.ppid);
      const own = up && `${up.split('/')[0]}/${p.name}`;
      if (own) label.set(pid, own);
      return own;
    };
    for (const pid of procs.keys()) {
      const name = labelOf(pid);
      if (!name) continue;
      try {
        const mb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
        peaks[name] = Math.max(peaks[name] ?? 0, mb);
      } catch {
        // gone already
      }
    }
  };
  return sampled(sample, everyMs, () => peaks);
}

/** Runs `sample` now and every `everyMs` until the returned stop, which samples once more and gives `result()`. */
function sampled<T>(sample: () => void, everyMs: number, result: () => T): () => T {
  const timer = setInterval(sample, everyMs);
  sample();
  return () => {
    clearInterval(timer);
    sample();
    return result();
  };
}

/**
 * Samples, every `everyMs`, the resident memory (VmRSS) of a process and everything below it, all
 * added up, leaving out the trees of `besides`: the highest total seen, in MB. A child that lives
 * less than a sample is missed.
 */
export function watchTreeMemory(root: number, besides: number[] = [], everyMs = 100): () => number {
  let peak = 0;
  const sample = () => {
    const procs = parents();
    const inTree = (pid: number): boolean => {
      for (let p = pid; p > 1; p = procs.get(p)?.ppid ?? 0) {
        if (besides.includes(p)) return false;
        if (p === root) return true;
      }
      return false;
    };
    let kb = 0;
    for (const pid of procs.keys()) {
      if (!inTree(pid)) continue;
      try {
        kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      } catch {
        // gone already
      }
    }
    peak = Math.max(peak, kb / 1024);
  };
  return sampled(sample, everyMs, () => peak);
}
