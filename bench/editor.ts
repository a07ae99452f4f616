/**
 * Merge, split and rotate of a large PDF through the pdf-editor service, against bare qpdf doing the
 * same work in the same run. Reports median times, their ratio and the service's peak memory.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpus, median, peakRssMb, startService, time, type BenchReport } from './lib.ts';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const port = 13201;

async function callService(tool: string, files: string[], fields: Record<string, string> = {}): Promise<void> {
  const form = new FormData();
  for (const f of files) form.append('file', await openAsBlob(f), 'big.pdf');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`http://127.0.0.1:${port}/tools/${tool}`, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`${tool}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
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
  const rows = [];
  try {
    for (const c of cases) {
      const base: number[] = [];
      const ours: number[] = [];
      await c.service(); // warm-up: first call loads code paths
      for (let i = 0; i < runs; i++) {
        // Alternate so that drift in the machine's load hits both alike.
        base.push(await time(async () => c.baseline()));
        ours.push(await time(c.service));
      }
      rows.push({
        op: c.op,
        qpdfMedianS: median(base),
        serviceMedianS: median(ours),
        ratio: median(ours) / median(base),
      });
    }
  } finally {
    const peak = peakRssMb(service.pid!);
    service.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    rows.push({ op: 'peak-memory', serviceMb: peak });
  }
  const peak = (rows.at(-1) as { serviceMb: number }).serviceMb;
  const lines = rows
    .filter((r): r is { op: string; qpdfMedianS: number; serviceMedianS: number; ratio: number } => 'ratio' in r)
    .map((r) => `| ${r.op} | ${r.qpdfMedianS.toFixed(3)} | ${r.serviceMedianS.toFixed(3)} | ${r.ratio.toFixed(2)}× |`);
  const summary = [
    `### pdf-editor on a ${pages}-page PDF (${(statSync(unit).size / 1024).toFixed(0)} KB unit ×100), median of ${runs}`,
    '',
    '| operation | bare qpdf (s) | service over HTTP (s) | ratio (target ≤ 1.3×) |',
    '|---|---|---|---|',
    ...lines,
    '',
    `Service peak memory: ${peak.toFixed(0)} MB (target < 300 MB).`,
  ].join('\n');
  return { name: 'editor', summary, data: { pages, runs, rows } };
}
