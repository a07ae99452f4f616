/**
 * Compression over every PDF of the corpus: Quire's pdf-compress at each level (through the real
 * service) against Ghostscript's /screen, /ebook and /printer and qpdf's lossless squeeze, run here in
 * the same run. For every output: bytes against the input and against /ebook, the lowest and mean SSIM
 * of its pages against the input's rendered at 72 and 150 dpi, the share of the input's words still
 * extracted, and time. The quality gate: every page at SSIM ≥ 0.95 at both resolutions, text kept,
 * no larger than the input. Headline: the median of Quire recommended's bytes over /ebook's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { mkdtempSync, openAsBlob, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { compressionLevels } from '@quire/catalog';
import { greySimilarity, missingItems, pageText, renderPage, samplePageNumbers, wordsOf, type Grey } from '@quire/pdf';
import { ghostscriptArgs, squeeze } from '../services/pdf-editor/src/tools/pdf-compress/index.ts';
import { corpus, median, resultsDir, startService, time, type BenchReport } from './lib.ts';

const port = 13251;
const gate = { ssim: 0.95, textKept: 0.99 };
const dpis = [72, 150] as const;
/** Pages compared per file: all of most corpus files, a spread (first and last included) of the longest. */
const pagesCompared = 12;
const presets = ['/screen', '/ebook', '/printer'] as const;
const levels = Object.keys(compressionLevels) as (keyof typeof compressionLevels)[];

interface Output {
  bytes: number;
  seconds: number;
  minSsim72: number;
  meanSsim72: number;
  minSsim150: number;
  meanSsim150: number;
  textKept: number;
  passes: boolean;
  candidate?: string;
}

type Row = { file: string; pages: number; inputBytes: number } & Record<string, Output | number | string>;

const job = (workdir: string) => ({ workdir, signal: new AbortController().signal, deadline: Date.now() + 600_000 });

/** A page's words, letters sorted within each (right-to-left text comes out of extraction either way). */
async function pageWords(path: string, page: number, dir: string): Promise<string[]> {
  const text = await pageText(path, page, job(dir)).catch(() => '');
  return wordsOf(text).map((w) => [...w].sort().join(''));
}

async function compare(
  input: { path: string; pages: number[]; renders: Map<string, Grey | undefined>; words: Map<number, string[]> },
  path: string,
  dir: string,
): Promise<Omit<Output, 'bytes' | 'seconds' | 'passes'>> {
  const scores: Record<number, number[]> = { 72: [], 150: [] };
  for (const dpi of dpis) {
    for (const page of input.pages) {
      const after = await renderPage(path, page, dpi, job(dir));
      scores[dpi]!.push(greySimilarity(input.renders.get(`${dpi}:${page}`), after));
    }
  }
  // The worst page's share of words still extracted, as the service checks it.
  let kept = 1;
  for (const page of input.pages) {
    const before = input.words.get(page) ?? [];
    const missing = missingItems(before, await pageWords(path, page, dir)).length;
    if (before.length) kept = Math.min(kept, 1 - missing / before.length);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return {
    minSsim72: Math.min(...scores[72]!),
    meanSsim72: mean(scores[72]!),
    minSsim150: Math.min(...scores[150]!),
    meanSsim150: mean(scores[150]!),
    textKept: kept,
  };
}

async function quire(file: string, level: string, out: string): Promise<string> {
  const form = new FormData();
  form.append('file', await openAsBlob(file), basename(file));
  form.append('level', level);
  const res = await fetch(`http://127.0.0.1:${port}/tools/pdf-compress`, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`pdf-compress ${level}: ${res.status} ${await res.text()}`);
  writeFileSync(out, Buffer.from(await res.arrayBuffer()));
  return (JSON.parse(res.headers.get('x-quire-properties') ?? '{}') as { candidate?: string }).candidate ?? '';
}

export async function benchCompress(): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-compress-'));
  const service = await startService('pdf-editor', port, { WORK_DIR: join(dir, 'work'), JOB_TIMEOUT_MS: '300000' });
  const rows: Row[] = [];
  // A long run cut short can go on where it stopped: BENCH_RESUME=1 keeps the rows already measured.
  const partial = join(resultsDir, 'compress.partial.json');
  const resumed = new Map<string, Row>(
    process.env.BENCH_RESUME
      ? (JSON.parse(await readFile(partial, 'utf8').catch(() => '[]')) as Row[]).map((r) => [r.file, r])
      : [],
  );
  try {
    const files = readdirSync(join(corpus, 'pdf'))
      .filter((f) => f.endsWith('.pdf'))
      .sort();
    for (const name of files) {
      const file = join(corpus, 'pdf', name);
      const done = resumed.get(name);
      if (done) {
        rows.push(done);
        continue;
      }
      // qpdf exits 3 when it had to repair the file to count its pages: the count still stands.
      const pages = Number(spawnSync('qpdf', ['--no-warn', '--show-npages', file]).stdout.toString());
      const input = {
        path: file,
        pages: samplePageNumbers(pages, pagesCompared),
        renders: new Map(),
        words: new Map<number, string[]>(),
      };
      for (const page of input.pages) {
        input.words.set(page, await pageWords(file, page, dir));
        for (const dpi of dpis) input.renders.set(`${dpi}:${page}`, await renderPage(file, page, dpi, job(dir)));
      }
      const inputBytes = statSync(file).size;
      const row: Row = { file: name, pages, inputBytes };
      const measure = async (key: string, make: (out: string) => Promise<string | void>) => {
        const out = join(dir, `${key.replace(/\W/g, '_')}.pdf`);
        let candidate = '';
        try {
          const seconds = await time(async () => (candidate = (await make(out)) ?? ''));
          const bytes = statSync(out).size;
          const quality = await compare(input, out, dir);
          const passes =
            quality.minSsim72 >= gate.ssim &&
            quality.minSsim150 >= gate.ssim &&
            quality.textKept >= gate.textKept &&
            bytes <= inputBytes;
          row[key] = { bytes, seconds, ...quality, passes, ...(candidate ? { candidate } : {}) };
        } catch (err) {
          row[key] = `failed: ${String(err).slice(0, 200)}`;
        }
        rmSync(out, { force: true });
      };
      for (const preset of presets)
        await measure(`gs ${preset}`, async (out) => {
          execFileSync('gs', ghostscriptArgs(preset, file, out), { timeout: 300_000, stdio: 'ignore' });
        });
      await measure('qpdf', async (out) => {
        execFileSync('qpdf', ['--no-warn', '--warning-exit-0', file, ...squeeze, out], { timeout: 300_000 });
      });
      for (const level of levels) await measure(`quire ${level}`, (out) => quire(file, level, out));
      rows.push(row);
      await writeFile(partial, JSON.stringify(rows));
      console.error(`  ${name}: ${summaryCell(row, 'quire recommended')} vs /ebook ${summaryCell(row, 'gs /ebook')}`);
    }
    await rm(partial, { force: true });
  } finally {
    service.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  return report(rows);
}

function output(row: Row, key: string): Output | undefined {
  const o = row[key];
  return typeof o === 'object' ? o : undefined;
}

function summaryCell(row: Row, key: string): string {
  const o = output(row, key);
  return o ? `${(o.bytes / 1024).toFixed(1)} KB${o.passes ? '' : ' ✗'}` : 'failed';
}

function report(rows: Row[]): BenchReport {
  const keys = [...presets.map((p) => `gs ${p}`), 'qpdf', ...levels.map((l) => `quire ${l}`)];
  const ratioTo = (key: string, base: (r: Row) => number | undefined) =>
    rows.flatMap((r) => {
      const o = output(r, key);
      const b = base(r);
      return o && b ? [o.bytes / b] : [];
    });
  const ebook = (r: Row) => output(r, 'gs /ebook')?.bytes;
  const lines = keys.map((key) => {
    const outs = rows.map((r) => output(r, key));
    const passing = outs.filter((o) => o?.passes).length;
    const toEbook = median(ratioTo(key, ebook));
    const toInput = median(ratioTo(key, (r) => r.inputBytes));
    const minSsim = Math.min(...outs.flatMap((o) => (o ? [o.minSsim72, o.minSsim150] : [])));
    const meanSsim = median(outs.flatMap((o) => (o ? [o.meanSsim150] : [])));
    const seconds = median(outs.flatMap((o) => (o ? [o.seconds] : [])));
    return `| ${key} | ${passing}/${rows.length} | ${toEbook.toFixed(3)} | ${toInput.toFixed(3)} | ${minSsim.toFixed(3)} | ${meanSsim.toFixed(4)} | ${seconds.toFixed(2)} s |`;
  });
  // The headline: Quire recommended, counted only where it passed the gate (a failure counts as the input).
  const headline = median(
    rows.flatMap((r) => {
      const o = output(r, 'quire recommended');
      const b = ebook(r);
      return b ? [(o?.passes ? o.bytes : r.inputBytes) / b] : [];
    }),
  );
  const larger = rows.filter((r) => levels.some((l) => (output(r, `quire ${l}`)?.bytes ?? 0) > r.inputBytes)).length;
  const summary = [
    `### compress: ${rows.length} corpus PDFs, Quire's levels against Ghostscript and qpdf in the same run`,
    '',
    `Median bytes of Quire \`recommended\` over Ghostscript \`/ebook\`, under the quality gate (every page SSIM ≥ ${gate.ssim} at 72 and 150 dpi, ≥ ${gate.textKept * 100}% of words kept, never larger than the input): **${headline.toFixed(3)}×** (target ≤ 0.9×: ${headline <= 0.9 ? 'pass' : '**FAIL**'}). Outputs larger than their input: ${larger}.`,
    '',
    '| output | passes the gate | median bytes / `/ebook` | median bytes / input | lowest page SSIM | median mean SSIM (150 dpi) | median time |',
    '|---|---|---|---|---|---|---|',
    ...lines,
    '',
    `Levels: ${levels.map((l) => `\`${l}\` images to ${compressionLevels[l].dpi} dpi, page SSIM ≥ ${compressionLevels[l].ssim}`).join('; ')}. Per-file rows: \`bench/results/compress.json\`.`,
  ].join('\n');
  return { name: 'compress', summary, data: rows };
}
