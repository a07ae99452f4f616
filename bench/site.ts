/**
 * The web site as a phone sees it: Lighthouse's standard mobile run (emulated phone, simulated slow 4G
 * and 4× CPU slowdown) on the home page, a tool page and a blog post, served the real way by the local
 * stack (nginx with the build's .gz files, in front of the gateway), against a trivial static page
 * served from this process in the same run, so that a low score can be told apart from a slow machine.
 * Reports the median of each category score (targets: performance ≥ 95, accessibility ≥ 95, SEO = 100),
 * median LCP, TBT, CLS and script bytes, the audits that fail, and the tool page's JavaScript against
 * its budget (≤ 120 KB gzipped), from the build and from what Lighthouse saw on the wire.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { chromiumPath, headlessChromiumFlags } from '@quire/renderer/chromium';
import { startStack } from '../scripts/stack.ts';
import { median, root, type BenchReport } from './lib.ts';

const runs = Number(process.env.BENCH_RUNS ?? 3);
/** Public port 48080, gateway 43100, services 43101...: beside `npm start` (8080) and the tests (18080). */
const portOffset = 40_000;
const chromeFlags = ['--headless=new', ...headlessChromiumFlags];
const dist = join(root, 'frontend/dist');

const categories = ['performance', 'accessibility', 'seo', 'best-practices'] as const;
type Category = (typeof categories)[number];
const targets: Record<Category, number | undefined> = {
  performance: 95,
  accessibility: 95,
  seo: 100,
  'best-practices': undefined,
};
const pages = [
  { name: 'home', path: '/' },
  { name: 'tool', path: '/tools/pdf-compress' },
  { name: 'blog post', path: '/blog/pdf-merge-guide' },
];
const toolPage = '/tools/pdf-compress';
const jsBudgetKb = 120;

/** The baseline: about the least a page can be, yet a complete one (language, title, description, viewport). */
const baselineHtml = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Baseline page</title>
<meta name="description" content="A trivial static page, the baseline of the site benchmark.">
<link rel="icon" href="data:,">
</head>
<body>
<main>
<h1>Baseline</h1>
<p>A heading and a paragraph, served from memory: what this machine scores for a page that costs nothing.</p>
</main>
</body>
</html>
`;

interface FailingAudit {
  category: Category;
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
  /** What it is about, from its details: files with their bytes or time, elements, phases (first few). */
  items?: string[];
}

interface ScriptRequest {
  url: string;
  transferSize: number;
  resourceSize: number;
}

interface Run {
  scores: Record<Category, number | null>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  speedIndexMs: number;
  scriptTransferBytes: number;
  scripts: ScriptRequest[];
  failing: FailingAudit[];
  /** The element of the largest paint and where its time went (TTFB, load delay, load time, render delay). */
  lcpElement: string;
  benchmarkIndex: number;
  warnings: string[];
}

interface PageResult {
  name: string;
  url: string;
  runs: Run[];
  scores: Record<Category, number | null>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  scriptTransferBytes: number;
  /** Every audit that failed in at least one run: how many runs, and its value in the median run if it failed there. */
  failing: (FailingAudit & { failedRuns: number })[];
  lcpElement: string;
}

function numeric(lhr: Result, id: string): number {
  return lhr.audits[id]?.numericValue ?? NaN;
}

/** Audits of a category that count and did not pass: binary ones below 1, the others below Lighthouse's 0.9. */
function failingAudits(lhr: Result): FailingAudit[] {
  const out: FailingAudit[] = [];
  for (const category of categories) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      // Lighthouse 12 files its newer "insights" under the hidden group; they are shown all the same.
      if (ref.group === 'metrics' || (ref.group === 'hidden' && !ref.id.endsWith('-insight'))) continue;
      const audit = lhr.audits[ref.id];
      if (!audit) continue;
      const mode = audit.scoreDisplayMode;
      if (mode === 'notApplicable' || mode === 'manual') continue;
      const failed =
        mode === 'error' ||
        (audit.score !== null && audit.score < (mode === 'binary' || category !== 'performance' ? 1 : 0.9));
      if (!failed) continue;
      out.push({
        category,
        id: ref.id,
        title: audit.title,
        score: audit.score,
        ...(audit.displayValue || audit.errorMessage
          ? { displayValue: audit.displayValue ?? `error: ${audit.errorMessage}` }
          : {}),
        ...(detailItems(audit.details).length ? { items: detailItems(audit.details) } : {}),
      });
    }
  }
  return out;
}

type Details = Result['audits'][string]['details'];

interface ChainNode {
  url: string;
  navStartToEndTime: number;
  isLongest?: boolean;
  children?: Record<string, ChainNode>;
}

const shortUrl = (url: string) => (url.startsWith('http') ? new URL(url).pathname : url);

/** The longest request chain of a network tree, as Lighthouse marks it. */
function longestChain(chains: Record<string, ChainNode>, duration: number): string {
  const steps: string[] = [];
  for (let level = chains; ;) {
    const next = Object.values(level).find((n) => n.isLongest);
    if (!next) break;
    steps.push(`${shortUrl(next.url)} (${next.navStartToEndTime} ms)`);
    level = next.children ?? {};
  }
  return `longest chain ${duration} ms: ${steps.join(' → ')}`;
}

/** A short line for each of the first items of an audit's details (tables, opportunities, lists of them). */
function detailItems(details: Details | Record<string, unknown>, max = 5): string[] {
  const d = details as Record<string, unknown> | undefined;
  if (!d) return [];
  if (d.type === 'list-section') return detailItems(d.value as Record<string, unknown>, max);
  if (d.type === 'network-tree') {
    const longest = d.longestChain as { duration: number } | undefined;
    return [longestChain(d.chains as Record<string, ChainNode>, longest?.duration ?? 0)];
  }
  if (d.type === 'checklist') {
    const checks = Object.values(d.items as Record<string, { label: string; value: boolean }>);
    return checks.filter((c) => !c.value).map((c) => `not met: ${c.label}`);
  }
  if (d.type === 'node') return [nodeText(d)];
  if (!Array.isArray(d.items)) return [];
  const out: string[] = [];
  for (const raw of d.items as unknown[]) {
    if (out.length >= max) break;
    const item = raw as Record<string, unknown>;
    if (typeof item.type === 'string') {
      out.push(...detailItems(item, max - out.length));
      continue;
    }
    const parts: string[] = [];
    if (typeof item.url === 'string') parts.push(shortUrl(item.url));
    if (item.node) parts.push(nodeText(item.node as Record<string, unknown>));
    if (typeof item.phase === 'string') parts.push(`${item.phase} ${Math.round(Number(item.timing))} ms`);
    if (typeof item.groupLabel === 'string') parts.push(`${item.groupLabel} ${Math.round(Number(item.duration))} ms`);
    if (typeof item.wastedBytes === 'number') parts.push(`${kb(item.wastedBytes)} KB unused`);
    else if (typeof item.totalBytes === 'number') parts.push(`${kb(item.totalBytes)} KB`);
    if (typeof item.wastedMs === 'number') parts.push(`${Math.round(item.wastedMs)} ms`);
    if (parts.length) out.push(parts.join(' '));
  }
  return out;
}

function nodeText(node: Record<string, unknown>): string {
  const selector = String(node.selector ?? '');
  const label = typeof node.nodeLabel === 'string' && node.nodeLabel !== selector ? node.nodeLabel.slice(0, 60) : '';
  return `${selector}${label ? ` "${label}"` : ''}`;
}

function scriptRequests(lhr: Result): ScriptRequest[] {
  const details = lhr.audits['network-requests']?.details;
  const items = details && 'items' in details ? (details.items as Record<string, unknown>[]) : [];
  return items
    .filter((item) => item.resourceType === 'Script')
    .map((item) => ({
      url: String(item.url),
      transferSize: Number(item.transferSize ?? 0),
      resourceSize: Number(item.resourceSize ?? 0),
    }));
}

/** One Lighthouse run in a Chromium of its own, with the default (mobile) config. */
async function lighthouseRun(url: string): Promise<Run> {
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags, logLevel: 'silent' });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...categories],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const scores = Object.fromEntries(
      categories.map((c) => {
        const score = lhr.categories[c]?.score;
        return [c, score === null || score === undefined ? null : Math.round(score * 100)];
      }),
    ) as Record<Category, number | null>;
    const scripts = scriptRequests(lhr);
    return {
      scores,
      lcpMs: numeric(lhr, 'largest-contentful-paint'),
      tbtMs: numeric(lhr, 'total-blocking-time'),
      cls: numeric(lhr, 'cumulative-layout-shift'),
      fcpMs: numeric(lhr, 'first-contentful-paint'),
      speedIndexMs: numeric(lhr, 'speed-index'),
      scriptTransferBytes: scripts.reduce((s, r) => s + r.transferSize, 0),
      scripts,
      failing: failingAudits(lhr),
      lcpElement: detailItems(lhr.audits['largest-contentful-paint-element']?.details).join(', '),
      benchmarkIndex: lhr.environment.benchmarkIndex,
      warnings: lhr.runWarnings.map(String),
    };
  } finally {
    chrome.kill();
  }
}

function medianOrNull(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? median(known) : null;
}

function summarize(name: string, url: string, pageRuns: Run[]): PageResult {
  const perf = medianOrNull(pageRuns.map((r) => r.scores.performance));
  // The run whose performance score is the median one stands for the page (as Lighthouse CI picks it).
  const representative =
    pageRuns.reduce<Run | undefined>(
      (best, r) =>
        !best ||
        Math.abs((r.scores.performance ?? 0) - (perf ?? 0)) < Math.abs((best.scores.performance ?? 0) - (perf ?? 0))
          ? r
          : best,
      undefined,
    ) ?? pageRuns[0]!;
  const failing = new Map<string, FailingAudit & { failedRuns: number }>();
  for (const run of [representative, ...pageRuns.filter((r) => r !== representative)]) {
    for (const audit of run.failing) {
      const key = `${audit.category}/${audit.id}`;
      const seen = failing.get(key);
      if (seen) seen.failedRuns++;
      else failing.set(key, { ...audit, failedRuns: 1 });
    }
  }
  return {
    name,
    url,
    runs: pageRuns,
    scores: Object.fromEntries(categories.map((c) => [c, medianOrNull(pageRuns.map((r) => r.scores[c]))])) as Record<
      Category,
      number | null
    >,
    lcpMs: median(pageRuns.map((r) => r.lcpMs)),
    tbtMs: median(pageRuns.map((r) => r.tbtMs)),
    cls: median(pageRuns.map((r) => r.cls)),
    fcpMs: median(pageRuns.map((r) => r.fcpMs)),
    scriptTransferBytes: median(pageRuns.map((r) => r.scriptTransferBytes)),
    failing: [...failing.values()],
    lcpElement: representative.lcpElement,
  };
}

/** Every script a built page loads by itself: `<script src>`, module preloads and script preloads. */
export function pageScripts(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const attrs = new Map<string, string>();
    for (const a of tag[2]!.matchAll(/([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      attrs.set(a[1]!.toLowerCase(), a[2] ?? a[3] ?? a[4] ?? '');
    }
    const rel = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
    const src =
      tag[1]!.toLowerCase() === 'script'
        ? attrs.get('src')
        : rel.includes('modulepreload') || (rel.includes('preload') && attrs.get('as') === 'script')
          ? attrs.get('href')
          : undefined;
    if (src && !found.includes(src)) found.push(src);
  }
  return found;
}

interface JsBudget {
  files: { path: string; bytes: number; gzipBytes: number; from: '.gz' | 'gzip -9' }[];
  totalBytes: number;
  totalGzipBytes: number;
  budgetBytes: number;
  pass: boolean;
}

/** The gzip size of each script the built tool page loads: the build's .gz beside it, else gzip level 9. */
function jsBudget(pagePath: string): JsBudget {
  const html = readFileSync(join(dist, pagePath, 'index.html'), 'utf8');
  const files = pageScripts(html).map((src) => {
    if (!src.startsWith('/') || src.startsWith('//'))
      throw new Error(`${pagePath} loads a script from elsewhere: ${src}`);
    const file = join(dist, new URL(src, 'http://site.invalid').pathname);
    const bytes = statSync(file).size;
    const gz = `${file}.gz`;
    return existsSync(gz)
      ? { path: src, bytes, gzipBytes: statSync(gz).size, from: '.gz' as const }
      : { path: src, bytes, gzipBytes: gzipSync(readFileSync(file), { level: 9 }).length, from: 'gzip -9' as const };
  });
  const totalGzipBytes = files.reduce((s, f) => s + f.gzipBytes, 0);
  return {
    files,
    totalBytes: files.reduce((s, f) => s + f.bytes, 0),
    totalGzipBytes,
    budgetBytes: jsBudgetKb * 1024,
    pass: totalGzipBytes <= jsBudgetKb * 1024,
  };
}

async function serveBaseline(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/' || req.url === '/bench-baseline.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
      res.end(baselineHtml);
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

/** Changes when the site is built again (another `npm run build` while this runs would mix two builds). */
function buildFingerprint(): string {
  return ['index.html', `${toolPage}/index.html`].map((f) => `${f}@${statSync(join(dist, f)).mtimeMs}`).join(' ');
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

function cell(score: number | null, target: number | undefined): string {
  if (score === null) return 'n/a';
  if (target === undefined) return String(score);
  return `${score} ${score >= target ? 'pass' : '**FAIL**'}`;
}

export async function benchSite(): Promise<BenchReport> {
  if (!existsSync(join(dist, 'index.html'))) {
    console.error('bench site: frontend/dist is missing, building the site…');
    const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-site.ts'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (build.status !== 0) throw new Error('The site did not build.');
  }
  const fingerprint = buildFingerprint();
  const budget = jsBudget(toolPage);

  const runDir = join(root, '.run/bench-site');
  await rm(runDir, { recursive: true, force: true });
  const baseline = await serveBaseline();
  const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}/bench-baseline.html`;
  const results = new Map<string, Run[]>();
  let siteUrl = '';
  try {
    const stack = await startStack({ runDir, portOffset, env: { LOG_LEVEL: 'warn' } });
    let crash: string | undefined;
    void stack.crashed.then((message) => (crash = message));
    siteUrl = stack.url;
    try {
      const targetsToRun = [
        { name: 'baseline', url: baselineUrl },
        ...pages.map((p) => ({ name: p.name, url: `${stack.url}${p.path}` })),
      ];
      for (let i = 0; i < runs; i++) {
        // One run of each page in turn, so that drift in the machine's load hits every page alike.
        for (const target of targetsToRun) {
          console.error(`bench site: run ${i + 1}/${runs} ${target.url}`);
          const run = await lighthouseRun(target.url);
          if (crash) throw new Error(`The stack stopped during the benchmark: ${crash}`);
          results.set(target.name, [...(results.get(target.name) ?? []), run]);
        }
      }
    } finally {
      await stack.stop();
    }
  } finally {
    await new Promise((done) => baseline.close(done));
  }

  let rebuilt = false;
  try {
    rebuilt = buildFingerprint() !== fingerprint;
  } catch {
    rebuilt = true;
  }
  const base = summarize('baseline', baselineUrl, results.get('baseline')!);
  const rows = pages.map((p) => summarize(p.name, `${siteUrl}${p.path}`, results.get(p.name)!));
  const tool = rows.find((r) => r.url.endsWith(toolPage))!;
  const toolRun = tool.runs.find((r) => r.scriptTransferBytes === tool.scriptTransferBytes) ?? tool.runs[0]!;
  const builtPaths = new Set(budget.files.map((f) => f.path));
  const onWire = toolRun.scripts.map((s) => ({ ...s, path: new URL(s.url).pathname }));
  const notInHtml = onWire.filter((s) => !builtPaths.has(s.path));
  const notLoaded = budget.files.filter((f) => !onWire.some((s) => s.path === f.path));
  const benchmarkIndex = median([...results.values()].flat().map((r) => r.benchmarkIndex));
  const warnings = [...new Set([...results.values()].flat().flatMap((r) => r.warnings))];

  const metrics = (r: PageResult) =>
    `${(r.fcpMs / 1000).toFixed(2)} s | ${(r.lcpMs / 1000).toFixed(2)} s | ${Math.round(r.tbtMs)} ms | ${r.cls.toFixed(3)} | ${kb(r.scriptTransferBytes)} KB`;
  const failingLines = rows.flatMap((r) => {
    if (!r.failing.length) return [`- **${r.name}**: no failing audits`];
    return [
      `- **${r.name}**:`,
      ...r.failing.map(
        (a) =>
          `  - ${a.category} \`${a.id}\`${a.displayValue ? `: ${a.displayValue}` : ''}${a.failedRuns < r.runs.length ? ` (${a.failedRuns}/${r.runs.length} runs)` : ''}` +
          (a.items?.length ? ` — ${a.items.slice(0, 3).join('; ')}` : ''),
      ),
    ];
  });
  const summary = [
    ...(rebuilt
      ? ['**The site was built again while this ran: these numbers mix two builds. Run it again.**', '']
      : []),
    `### site: Lighthouse ${lighthouseVersion()} mobile (simulated slow 4G, 4× CPU), median of ${runs}, through nginx`,
    '',
    '| page | performance (≥ 95) | accessibility (≥ 95) | SEO (= 100) | best practices | FCP | LCP | TBT | CLS | scripts transferred |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} \`${new URL(r.url).pathname}\` | ${categories.map((c) => cell(r.scores[c], targets[c])).join(' | ')} | ${metrics(r)} |`,
    ),
    `| *baseline: a heading and a paragraph* | ${categories.map((c) => cell(base.scores[c], undefined)).join(' | ')} | ${metrics(base)} |`,
    '',
    `JavaScript of the tool page \`${toolPage}\`: ${kb(budget.totalGzipBytes)} KB gzipped in ${budget.files.length} files ` +
      `(${kb(budget.totalBytes)} KB raw), budget ${jsBudgetKb} KB: ${budget.pass ? 'pass' : '**FAIL**'}. ` +
      `Lighthouse saw ${onWire.length} scripts, ${kb(toolRun.scriptTransferBytes)} KB transferred (with headers)` +
      (notInHtml.length
        ? `, ${notInHtml.length} not named in the HTML (${notInHtml.map((s) => s.path).join(', ')})`
        : '') +
      (notLoaded.length ? `; ${notLoaded.length} named in the HTML were not loaded` : '') +
      '.',
    '',
    `Baseline (same machine, same run): performance ${base.scores.performance ?? 'n/a'}, LCP ${(base.lcpMs / 1000).toFixed(2)} s, ` +
      `TBT ${Math.round(base.tbtMs)} ms; Lighthouse's benchmark index of this machine: ${Math.round(benchmarkIndex)}. ` +
      'A baseline well below 100 means the machine, not the site, is slow.',
    '',
    'Largest contentful paint (median run): ' + rows.map((r) => `${r.name}: ${r.lcpElement}`).join('; ') + '.',
    '',
    'Failing audits (value in the median run; runs where it failed if not all):',
    '',
    ...failingLines,
    ...(warnings.length ? ['', `Lighthouse warnings: ${warnings.join(' / ')}`] : []),
  ].join('\n');
  return {
    name: 'site',
    summary,
    data: {
      runs,
      rebuiltDuringRun: rebuilt,
      lighthouse: lighthouseVersion(),
      chromium: chromiumPath,
      chromeFlags,
      targets: { ...targets, jsBudgetKb },
      benchmarkIndex,
      warnings,
      pages: rows,
      baseline: base,
      jsBudget: {
        page: toolPage,
        ...budget,
        lighthouse: { transferBytes: toolRun.scriptTransferBytes, scripts: onWire },
        notInHtml: notInHtml.map((s) => s.path),
        notLoaded: notLoaded.map((f) => f.path),
      },
    },
  };
}

function lighthouseVersion(): string {
  const pkg = JSON.parse(readFileSync(join(root, 'node_modules/lighthouse/package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

// Run alone: node --import tsx bench/site.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await benchSite();
  console.log(report.summary);
}
