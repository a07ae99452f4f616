/**
 * Merge, split and rotate of a large PDF through the pdf-editor service, against bare qpdf doing the
 * same work in the same run. Reports median times, their ratio and the service's peak memory; the
 * service's Server-Timing splits its time into the tool's own work and the check of its result.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpus, median, peakRssMb, startService, time, type BenchReport } from './lib.ts';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const port = 13201;

/** The service's own account of a call: the tool's time and its check's, in seconds. */
interface Timing {
  toolS: number;
  verifyS: number;
}

async function callService(tool: string, files: string[], fields: Record<string, string> = {}): Promise<Timing> {
  const form = new FormData();
  for (const f of files) form.append('file', await openAsBlob(f), 'big.pdf');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`http://127.0.0.1:${port}/tools/${tool}`, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`${tool}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  const dur = (name: string) =>
    Number(new RegExp(`${name};dur=([\\d.]+)`).exec(res.headers.get('server-timing') ?? '')?.[1]) / 1000;
  return { toolS: dur('tool'), verifyS: dur('verify') };
}

interface Row {
  op: string;
  qpdfMedianS: number;
  serviceMedianS: number;
  ratio: number;
  toolMedianS: number;
  toolRatio: number;
  verifyMedianS: number;
}

export async function benchEditor(): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-editor-'));
  const unit = join(corpus, 'pdf/qpdf-11-pages.pdf');
  const big = join(dir, 'big.pdf');
  execFileSync('qpdf', ['--empty', '--pages', ...Array(100).fill(unit), '--', big]);
  const pages = Number(execFileSync('qpdf', ['--show-npages', big]).toString());
  const out = (n: string) => join(dir, n);
  const cases = [
    {
      op: 'merge',
      baseline: () => execFileSync('qpdf', ['--empty', '--pages', big, big, '--', out('m.pdf')]),
      service: () => callService('pdf-merge', [big, big]),
    },
    {
      op: 'split',
      baseline: () => execFileSync('qpdf', ['--split-pages', big, out('s-%d.pdf')]),
      service: () => callService('pdf-split', [big]),
    },
    {
      op: 'rotate',
      baseline: () => execFileSync('qpdf', [big, out('r.pdf'), '--rotate=+90']),
      service: () => callService('rotate-pdf', [big], { angle: '90' }),
    },
  ];
  const service = await startService('pdf-editor', port, { WORK_DIR: join(dir, 'work') });
  const rows: Row[] = [];
  let peak = 0;
  try {
    for (const c of cases) {
      const base: number[] = [];
      const ours: number[] = [];
      const timings: Timing[] = [];
      await c.service(); // warm-up: first call loads code paths
      for (let i = 0; i < runs; i++) {
        // Alternate so that drift in the machine's load hits both alike.
        base.push(await time(async () => c.baseline()));
        ours.push(await time(async () => void timings.push(await c.service())));
      }
      rows.push({
        op: c.op,
        qpdfMedianS: median(base),
        serviceMedianS: median(ours),
        ratio: median(ours) / median(base),
        toolMedianS: median(timings.map((t) => t.toolS)),
        toolRatio: median(timings.map((t) => t.toolS)) / median(base),
        verifyMedianS: median(timings.map((t) => t.verifyS)),
      });
    }
  } finally {
    peak = peakRssMb(service.pid!);
    service.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  const lines = rows.map(
    (r) =>
      `| ${r.op} | ${r.qpdfMedianS.toFixed(3)} | ${r.serviceMedianS.toFixed(3)} | ${r.ratio.toFixed(2)}× | ${r.toolMedianS.toFixed(3)} | ${r.toolRatio.toFixed(2)}× | ${r.verifyMedianS.toFixed(3)} |`,
  );
  const summary = [
    `### pdf-editor on a ${pages}-page PDF (${(statSync(unit).size / 1024).toFixed(0)} KB unit ×100), median of ${runs}`,
    '',
    '| operation | bare qpdf (s) | service over HTTP (s) | ratio (target ≤ 1.3×) | of which the tool (s) | tool / qpdf | then its check (s) |',
    '|---|---|---|---|---|---|---|',
    ...lines,
    '',
    "Service over HTTP: the whole call, upload, tool, check of the result and download; the tool and its check as the service's Server-Timing reports them. Every result is checked before it is offered (pages counted, `qpdf --check`, sampled pages' text and pixels), which bare qpdf does not do.",
    '',
    `Service peak memory: ${peak.toFixed(0)} MB (target < 300 MB).`,
  ].join('\n');
  return { name: 'editor', summary, data: { pages, runs, rows, peakServiceMb: peak } };
}
