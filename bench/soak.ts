/**
 * Memory over time: the whole stack under a steady mixed load (a few clients, one job after another,
 * every service's tools, each result downloaded) for SOAK_SECONDS (default ten minutes), with the
 * resident memory of every long-lived process group sampled every 10 s from /proc: nginx, the gateway,
 * each service, and the engines they start (LibreOffice, Chromium). The baseline, in the same run, is
 * each series' median over the first minute; the verdict is the slope of a least-squares line over the
 * second half.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startStack, type Stack } from '../scripts/stack.ts';
import { corpusFiles } from '../tests/lib/corpus.ts';
import { download, post } from '../tests/lib/http.ts';
import { median, type BenchReport } from './lib.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const intervalMs = 10_000;
const clients = 2;
/** Public port 32080, gateway 27100, services 27101...: beside the tests' and the other benches' stacks. */
const portOffset = 24_000;
/**
 * A series is flat when its slope over the second half is under 0.5 MB/min: 30 MB an hour, a few KB per
 * job at this load, a growth that would take a day to reach the size of a Node process. A larger slope
 * within twice its standard error is not a trend but the sawtooth of collections, jobs' buffers and
 * engine restarts, which one short run cannot tell from one.
 */
const flatMbPerMin = 0.5;

const file = (name: string) => corpusFiles().find((f) => f.file === name)!.path;
const jobs: { tool: string; files: string[]; fields?: Record<string, string> }[] = [
  { tool: 'rotate-pdf', files: [file('pdf/qpdf-11-pages.pdf')], fields: { angle: '90' } },
  { tool: 'pdf-merge', files: [file('pdf/pypdf-pdflatex-4-pages.pdf'), file('pdf/pdfminer-simple1.pdf')] },
  { tool: 'pdf-compress', files: [file('pdf/pypdf-pdflatex-4-pages.pdf')] },
  { tool: 'jpg-to-pdf', files: [file('images/pillow-hopper.jpg')] },
  { tool: 'word-to-pdf', files: [file('office/jod-test.docx')] },
  { tool: 'html-to-pdf', files: [file('html/gotenberg-pages-12.html')] },
  { tool: 'pdf-to-text', files: [file('pdf/pypdf-minimal-document.pdf')] },
];

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  comm: string;
  cmdline: string;
  rssKb: number;
}

/** Every process we may read, from /proc/<pid>/stat, status and cmdline. */
function processes(): Proc[] {
  const list: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command may hold spaces and parentheses: the fields start after its last ')'.
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      list.push({
        pid: Number(entry),
        comm: stat.slice(stat.indexOf('(') + 1, close),
        ppid: Number(fields[1]),
        pgid: Number(fields[2]),
        cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '),
        // Kernel threads and zombies have no VmRSS.
        rssKb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0),
      });
    } catch {
      // gone while we looked
    }
  }
  return list;
}

/** Which engine a process belongs to, by its program; undefined for the part's own processes. */
function engineOf(p: Proc): string | undefined {
  if (/soffice|oosplash/.test(p.comm) || p.cmdline.includes('uno_helper.py')) return 'LibreOffice';
  if (/chrom|headless_shell/i.test(p.comm)) return 'Chromium';
  return undefined;
}

/**
 * Resident memory in MB by series: each part (root process and the rest of its process group, such as
 * nginx's workers), and each engine it started (their own process groups, found as its descendants).
 * The programs a job runs (qpdf, Ghostscript) live for one job and are left out: a leak lives on.
 */
function sample(roots: Record<string, number>): Record<string, number> {
  const all = processes();
  const children = new Map<number, Proc[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const byPid = new Map(all.map((p) => [p.pid, p]));
  const kb: Record<string, number> = {};
  for (const [name, rootPid] of Object.entries(roots)) {
    const root = byPid.get(rootPid);
    if (!root) continue;
    const seen = new Set<number>();
    const todo = [root];
    // Descendants, and whoever shares a process group with one (an engine whose launcher has exited).
    for (let p = todo.pop(); p; p = todo.pop()) {
      if (seen.has(p.pid)) continue;
      seen.add(p.pid);
      todo.push(...(children.get(p.pid) ?? []), ...all.filter((q) => q.pgid === p.pgid && q.pgid !== 0));
    }
    for (const pid of seen) {
      const p = byPid.get(pid)!;
      const engine = engineOf(p);
      const series = engine ? `${name} ${engine}` : p.pgid === root.pgid ? name : undefined;
      if (series) kb[series] = (kb[series] ?? 0) + p.rssKb;
    }
  }
  return Object.fromEntries(Object.entries(kb).map(([k, v]) => [k, v / 1024]));
}

/** The least-squares line's slope of y over x, and its standard error (NaN with fewer than 3 points). */
function slope(points: [number, number][]): { slope: number; error: number } {
  const n = points.length;
  if (n < 3) return { slope: NaN, error: NaN };
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const b = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx;
  const residuals = points.reduce((s, [x, y]) => s + (y - my - b * (x - mx)) ** 2, 0);
  return { slope: b, error: Math.sqrt(residuals / (n - 2) / sxx) };
}

function verdict({ slope, error }: { slope: number; error: number }): string {
  if (!Number.isFinite(slope)) return 'too few samples';
  if (Math.abs(slope) < flatMbPerMin) return 'flat';
  if (Math.abs(slope) < 2 * error) return 'no clear trend';
  return slope > 0 ? '**rising**' : 'falling';
}

/** The part's processes to follow: every instance the stack started, and nginx by its pid file. */
function rootsOf(stack: Stack): Record<string, number> {
  const roots: Record<string, number> = {
    nginx: Number(readFileSync(join(stack.runDir, 'nginx', 'nginx.pid'), 'utf8').trim()),
  };
  for (const [name, instances] of Object.entries(stack.instances)) {
    instances.forEach((inst, k) => (roots[k ? `${name}-${k + 1}` : name] = inst.pid));
  }
  return roots;
}

export async function benchSoak(): Promise<BenchReport> {
  // A short path: Chromium's socket in the renderer's work folder must fit in 108 bytes.
  const runDir = await mkdtemp(join(tmpdir(), 'soak-'));
  const samples: { t: number; rssMb: Record<string, number> }[] = [];
  const outcomes: Record<string, number> = {};
  let downloads: string | undefined;
  try {
    const stack = await startStack({
      runDir,
      portOffset,
      authEmulator: false,
      env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' },
    });
    let crash: string | undefined;
    void stack.crashed.then((message) => (crash = message));
    try {
      const roots = rootsOf(stack);
      const start = Date.now();
      const end = start + seconds * 1000;
      const client = async (first: number) => {
        for (let i = first; Date.now() < end && !crash; i++) {
          const job = jobs[i % jobs.length]!;
          let outcome: string;
          try {
            const r = await post(`${stack.url}/api/v1/tools/${job.tool}`, job.files, job.fields ?? {});
            outcome = r.status === 200 ? 'ok' : (r.body.error?.code ?? String(r.status));
            if (r.body.download) downloads = dirname((await download(stack.url, r.body.download)).path);
          } catch {
            outcome = 'no answer';
          }
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        }
      };
      const sampler = async () => {
        for (let next = start; next <= end && !crash; next += intervalMs) {
          await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
          samples.push({ t: (Date.now() - start) / 1000, rssMb: sample(roots) });
        }
      };
      await Promise.all([sampler(), ...Array.from({ length: clients }, (_, k) => client(k * 2))]);
      if (crash) throw new Error(`The stack stopped during the soak: ${crash}`);
    } finally {
      await stack.stop();
    }
  } finally {
    for (const d of [runDir, downloads]) if (d) await rm(d, { recursive: true, force: true });
  }

  const jobsRun = Object.values(outcomes).reduce((a, b) => a + b, 0);
  const jobsPerMin = jobsRun / (seconds / 60);
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.rssMb)))].sort();
  const series = names.map((name) => {
    const points = samples
      .filter((s) => s.rssMb[name] !== undefined)
      .map((s): [number, number] => [s.t / 60, s.rssMb[name]!]);
    const values = points.map(([, mb]) => mb);
    const secondHalf = points.filter(([min]) => min >= seconds / 120);
    const line = slope(secondHalf);
    return {
      name,
      samples: points.length,
      startMb: values[0]!,
      baselineMb: median(points.filter(([min]) => min <= 1).map(([, mb]) => mb)),
      medianMb: median(values),
      maxMb: Math.max(...values),
      endMb: values.at(-1)!,
      mbPerMin: line.slope,
      mbPerMinError: line.error,
      verdict: verdict(line),
    };
  });

  const mb = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '–');
  const summary = [
    `### soak: the whole stack for ${(seconds / 60).toFixed(0)} min under a steady mixed load, RSS every ${intervalMs / 1000} s`,
    '',
    `${clients} clients, one job after another (${jobs.map((j) => j.tool).join(', ')}), each result downloaded: ${jobsRun} jobs (${jobsPerMin.toFixed(1)} a minute), ${Object.entries(
      outcomes,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    `| process group | start (MB) | baseline: 1st minute's median (MB) | median (MB) | max (MB) | end (MB) | slope, 2nd half (MB/min, ± standard error) | verdict |`,
    '|---|---|---|---|---|---|---|---|',
    ...series.map(
      (s) =>
        `| ${s.name} | ${mb(s.startMb)} | ${mb(s.baselineMb)} | ${mb(s.medianMb)} | ${mb(s.maxMb)} | ${mb(s.endMb)} | ${
          Number.isFinite(s.mbPerMin) ? `${s.mbPerMin.toFixed(2)} ± ${s.mbPerMinError.toFixed(2)}` : '–'
        } | ${s.verdict} |`,
    ),
    '',
    `${series.filter((s) => s.verdict === 'flat').length} of ${series.length} flat (|slope| < ${flatMbPerMin} MB/min, ${((flatMbPerMin * 1024) / jobsPerMin).toFixed(0)} KB per job at this load; a smaller leak needs a longer soak to show); "no clear trend": the slope is within twice its standard error. An engine's series is the sum of its processes' RSS, shared pages counted in each; engines are replaced after a number of jobs (OFFICE_RESTART_AFTER, RENDERER_RESTART_AFTER_JOBS), so their series saw up and down. Shared 2-core machine: other people's work runs beside it, so the numbers are noisy.`,
  ].join('\n');
  return { name: 'soak', summary, data: { seconds, intervalS: intervalMs / 1000, clients, outcomes, series, samples } };
}
