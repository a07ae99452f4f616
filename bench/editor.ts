/**
 * Rotate, merge, split and remove pages of big PDFs through the whole stack (nginx, gateway,
 * pdf-editor: upload, tool, check, result kept, download), against bare qpdf doing the same work in
 * the same run. Three files: 1,100 pages of text (an 11-page paper ×100); 1,100 pages with a JPEG
 * photo and 30 lines of text on each (what a scanner or a report generator writes); and 5,000 such
 * pages, some 100 MB, run once each with compress too, while every process's memory is watched.
 * The gateway's Server-Timing splits a call into its parts: the tool's own time and its check's.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack } from '../scripts/stack.ts';
import { hugeSpec, makeBigPdf, reportSpec } from './big-pdf.ts';
import { corpus, median, time, watchMemory, type BenchReport } from './lib.ts';

const runs = Number(process.env.BENCH_RUNS ?? 5);
/** Public port 35080, gateway 30100, pdf-editor 30101: beside the tests' and the other benches' stacks. */
const portOffset = 27_000;
const targets: Record<string, number> = { rotate: 2, merge: 1.5, split: 1, remove: 1.5 };
const checkTargetMs = 100;

/** The gateway's account of a call, in ms: the service's tool and check, and the gateway's own parts. */
type Timing = Record<string, number>;

async function callTool(stack: Stack, tool: string, files: string[], fields: Record<string, string>): Promise<Timing> {
  const form = new FormData();
  for (const f of files) form.append('file', await openAsBlob(f), 'big.pdf');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${stack.url}/api/v1/tools/${tool}`, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`${tool}: ${res.status} ${await res.text()}`);
  const { download } = (await res.json()) as { download: string };
  const got = await fetch(`${stack.url}/uploads/${encodeURIComponent(download)}`);
  if (!got.ok) throw new Error(`${tool} download: ${got.status}`);
  await got.arrayBuffer();
  const timing: Timing = {};
  for (const m of (res.headers.get('server-timing') ?? '').matchAll(/([\w-]+);dur=([\d.]+)/g))
    timing[m[1]!] = Number(m[2]);
  return timing;
}

interface Case {
  op: string;
  tool: string;
  files: string[];
  fields?: Record<string, string>;
  /** The same work by bare qpdf. */
  baseline?: string[];
}

/** A copy of a file beside it, made once. */
function twin(file: string): string {
  const copy = file.replace(/\.pdf$/, '-twin.pdf');
  if (!existsSync(copy)) copyFileSync(file, copy);
  return copy;
}

function cases(file: string, out: (name: string) => string, withCompress: boolean): Case[] {
  const all: Case[] = [
    {
      op: 'rotate',
      tool: 'rotate-pdf',
      files: [file],
      fields: { angle: '90' },
      baseline: [file, out('r.pdf'), '--rotate=+90'],
    },
    {
      op: 'merge',
      tool: 'pdf-merge',
      files: [file, file],
      // Two files, as the tool is given two uploads: qpdf reads a file named twice only once.
      baseline: ['--empty', '--pages', file, twin(file), '--', out('m.pdf')],
    },
    { op: 'split', tool: 'pdf-split', files: [file], baseline: ['--split-pages', file, out('s/p-%d.pdf')] },
    {
      op: 'remove',
      tool: 'pdf-page-remove',
      files: [file],
      fields: { pages: '10-110' },
      baseline: [file, '--pages', '.', '1-9,111-z', '--', out('x.pdf')],
    },
  ];
  return withCompress ? [...all, { op: 'compress', tool: 'pdf-compress', files: [file] }] : all;
}

interface Row {
  file: string;
  op: string;
  qpdfMedianS: number;
  wholeMedianS: number;
  ratio: number;
  target?: number;
  toolMedianMs: number;
  checkMedianMs: number;
}

async function measure(stack: Stack, file: string, label: string, dir: string, n: number, withCompress = false) {
  const out = (name: string) => join(dir, name);
  mkdirSync(out('s'), { recursive: true });
  const rows: Row[] = [];
  for (const c of cases(file, out, withCompress)) {
    const base: number[] = [];
    const whole: number[] = [];
    const timings: Timing[] = [];
    const call = () => callTool(stack, c.tool, c.files, c.fields ?? {});
    if (n > 1) await call(); // warm-up: first calls load code paths
    for (let i = 0; i < n; i++) {
      // Into an empty folder each time, as the service writes: overwriting the files of the run before
      // costs a fraction of making them anew.
      rmSync(out('s'), { recursive: true, force: true });
      mkdirSync(out('s'));
      // Alternate so that drift in the machine's load hits both alike.
      if (c.baseline) base.push(await time(async () => execFileSync('qpdf', c.baseline!, { stdio: 'ignore' })));
      whole.push(await time(async () => void timings.push(await call())));
    }
    const qpdfMedianS = base.length ? median(base) : NaN;
    rows.push({
      file: label,
      op: c.op,
      qpdfMedianS,
      wholeMedianS: median(whole),
      ratio: median(whole) / qpdfMedianS,
      ...(label !== 'text' && targets[c.op] && { target: targets[c.op] }),
      toolMedianMs: median(timings.map((t) => t.tool ?? NaN)),
      checkMedianMs: median(timings.map((t) => t.verify ?? NaN)),
    });
  }
  return rows;
}

/** nginx's master process, from the pid file the stack gave it. */
function nginxPid(stack: Stack): number | undefined {
  const file = join(stack.runDir, 'nginx', 'nginx.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : undefined;
}

export async function benchEditor(): Promise<BenchReport> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-editor-'));
  const files = {
    text: join(dir, 'text.pdf'),
    report: await makeBigPdf(join(dir, 'report.pdf'), reportSpec),
    huge: await makeBigPdf(join(dir, 'huge.pdf'), hugeSpec),
  };
  const unit = join(corpus, 'pdf/qpdf-11-pages.pdf');
  execFileSync('qpdf', ['--empty', '--pages', ...Array(100).fill(unit), '--', files.text]);
  const sizes = Object.fromEntries(Object.entries(files).map(([k, f]) => [k, statSync(f).size / 1e6]));
  const rows: Row[] = [];
  let memory: Record<string, number> = {};
  const load = [loadavg()[0]!];
  try {
    const stack = await startStack({
      runDir: join(dir, 'run'),
      portOffset,
      services: ['pdf-editor'],
      authEmulator: false,
      uploadLimitMb: 512,
      env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', JOB_TIMEOUT_MS: '900000' },
    });
    try {
      rows.push(...(await measure(stack, files.text, 'text', dir, runs)));
      rows.push(...(await measure(stack, files.report, 'report', dir, runs)));
      const roots: Record<string, number> = {
        gateway: stack.instances.gateway![0]!.pid,
        'pdf-editor': stack.instances['pdf-editor']![0]!.pid,
      };
      const nginx = nginxPid(stack);
      if (nginx) roots.nginx = nginx;
      const stop = watchMemory(roots);
      rows.push(...(await measure(stack, files.huge, 'huge', dir, 1, true)));
      memory = stop();
    } finally {
      await stack.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  load.push(loadavg()[0]!);
  return {
    name: 'editor',
    summary: summarize(rows, sizes, memory, load),
    data: { runs, sizes, rows, memoryMb: memory, load },
  };
}

function summarize(rows: Row[], sizes: Record<string, number>, memory: Record<string, number>, load: number[]): string {
  const s = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : '–');
  const line = (r: Row) => {
    const verdict =
      r.target === undefined ? '' : r.ratio <= r.target ? ` (≤ ${r.target}×: pass)` : ` (≤ ${r.target}×: **FAIL**)`;
    const ratio = Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}×${verdict}` : '–';
    const check =
      r.checkMedianMs <= checkTargetMs || r.file !== 'report'
        ? r.checkMedianMs.toFixed(0)
        : `**${r.checkMedianMs.toFixed(0)}**`;
    return `| ${r.file} | ${r.op} | ${s(r.qpdfMedianS)} | ${s(r.wholeMedianS)} | ${ratio} | ${r.toolMedianMs.toFixed(0)} | ${check} |`;
  };
  const peaks = Object.entries(memory).sort((a, b) => b[1] - a[1]);
  const [top] = peaks;
  return [
    `### pdf-editor through nginx and the gateway, median of ${runs} (huge: one run)`,
    '',
    `Files: text, 1,100 pages (qpdf-11-pages.pdf ×100, ${sizes.text!.toFixed(1)} MB); report, ${reportSpec.pages} pages with a JPEG photo and ${reportSpec.lines} lines of text on each (${sizes.report!.toFixed(1)} MB); huge, ${hugeSpec.pages} such pages (${sizes.huge!.toFixed(0)} MB). Merge joins two copies of the file (two files for qpdf too, as the tool gets two uploads); remove takes out pages 10–110.`,
    '',
    '| file | operation | bare qpdf (s) | whole call (s) | ratio | the tool (ms) | its check (ms) |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(line),
    '',
    `Whole call: upload through nginx, the gateway and the service, the tool, the check of its result, the result kept, and its download. The tool and its check as the gateway's Server-Timing reports them (check target ≤ ${checkTargetMs} ms on the report file). Shared 2-core machine, load average ${load.map((l) => l.toFixed(1)).join(' then ')}: other work slows both sides, the stack's several processes more than one qpdf.`,
    '',
    `Peak resident memory during the huge file's calls (target < 300 MB each): ${peaks.map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`).join(', ')}${top ? `; the highest is ${top[0]}` : ''}.`,
  ].join('\n');
}
