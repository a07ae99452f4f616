/**
 * HTML to PDF of every corpus HTML page through the renderer service (one warm Chromium, a fresh
 * context per job), against a cold Chromium launched for each job doing the same work in the same run:
 * the same flags, the page served from memory by route interception, print media, A4, then closed.
 * Reports median times per page, the overall ratio (cold / warm, target >= 1.8x) and memory.
 */
import { mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs } from '@quire/renderer';
import { chromiumPath } from '@quire/renderer/chromium';
import { corpus, median, peakRssMb, startService, time, type BenchReport } from './lib.ts';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const port = 13203;

async function callService(file: string): Promise<void> {
  const form = new FormData();
  form.append('file', await openAsBlob(file), basename(file));
  const res = await fetch(`http://127.0.0.1:${port}/tools/html-to-pdf`, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`html-to-pdf ${basename(file)}: ${res.status} ${await res.text()}`);
  const pdf = Buffer.from(await res.arrayBuffer());
  if (!pdf.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error(`html-to-pdf ${basename(file)}: not a PDF`);
}

/** What a converter without a warm browser does for each job: launch, load, print, close. */
async function coldJob(file: string): Promise<void> {
  const html = readFileSync(file);
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  try {
    const context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false });
    await context.route('**/*', (route) =>
      route.request().url() === 'http://quire.invalid/index.html'
        ? route.fulfill({ status: 200, contentType: 'text/html', body: html })
        : route.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    await page.emulateMedia({ media: 'print' });
    await page.goto('http://quire.invalid/index.html', { waitUntil: 'load', timeout: 60_000 });
    const pdf = await page.pdf({
      format: 'A4',
      printBackground: true,
      margin: { top: '1cm', bottom: '1cm', left: '1cm', right: '1cm' },
    });
    if (pdf.length < 100) throw new Error('empty PDF');
  } finally {
    await browser.close();
  }
}

/** Resident memory of a process and all its descendants (Chromium's processes under the service), in MB. */
function treeRssMb(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone */
    }
  }
  let kb = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* gone */
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return kb / 1024;
}

export async function benchRenderer(): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-renderer-'));
  const files = readdirSync(join(corpus, 'html'))
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((f) => join(corpus, 'html', f));
  const service = await startService('renderer', port, { WORK_DIR: join(dir, 'work') });
  const rows: { page: string; coldMedianS: number; warmMedianS: number; ratio: number }[] = [];
  let treeMb = 0;
  let peak = 0;
  try {
    for (const file of files) await callService(file); // warm-up: first calls load code paths and fonts
    for (const file of files) {
      const cold: number[] = [];
      const warm: number[] = [];
      for (let i = 0; i < runs; i++) {
        // Alternate so that drift in the machine's load hits both alike.
        cold.push(await time(() => coldJob(file)));
        warm.push(await time(() => callService(file)));
      }
      rows.push({
        page: basename(file),
        coldMedianS: median(cold),
        warmMedianS: median(warm),
        ratio: median(cold) / median(warm),
      });
    }
    treeMb = treeRssMb(service.pid!);
    peak = peakRssMb(service.pid!);
  } finally {
    service.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    rmSync(dir, { recursive: true, force: true });
  }
  const coldTotal = rows.reduce((s, r) => s + r.coldMedianS, 0);
  const warmTotal = rows.reduce((s, r) => s + r.warmMedianS, 0);
  const ratio = coldTotal / warmTotal;
  const summary = [
    `### renderer: html-to-pdf of the ${rows.length} corpus HTML pages, median of ${runs}`,
    '',
    '| page | cold launch per job (s) | warm service over HTTP (s) | speed-up |',
    '|---|---|---|---|',
    ...rows.map(
      (r) => `| ${r.page} | ${r.coldMedianS.toFixed(3)} | ${r.warmMedianS.toFixed(3)} | ${r.ratio.toFixed(2)}× |`,
    ),
    `| **all pages** | ${coldTotal.toFixed(3)} | ${warmTotal.toFixed(3)} | **${ratio.toFixed(2)}×** (target ≥ 1.8×) |`,
    '',
    `Service process peak memory: ${peak.toFixed(0)} MB; with its Chromium processes at the end: ${treeMb.toFixed(0)} MB.`,
  ].join('\n');
  return {
    name: 'renderer',
    summary,
    data: { runs, rows, coldTotalS: coldTotal, warmTotalS: warmTotal, ratio, peakMb: peak, treeMb },
  };
}

// Run alone: node --import tsx bench/renderer.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await benchRenderer();
  console.log(report.summary);
}
