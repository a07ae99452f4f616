/**
 * Office documents to PDF: the office service's warm listeners (over HTTP, Gotenberg's route) against
 * a cold `soffice --convert-to` with its own profile, on the corpus's office files, in the same run.
 * Reports p50 latency of each, their ratio, and throughput with one and two listeners.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { corpus, median, peakRssMb, startService, time, type BenchReport } from './lib.ts';

const run = promisify(execFile);
const rounds = Number(process.env.BENCH_RUNS ?? 3);
const port = 13202;
/** "Small" documents, for the latency target: at most this many bytes. */
const smallBytes = 50 * 1024;
/** Conversions per throughput measurement. */
const throughputJobs = Number(process.env.BENCH_OFFICE_JOBS ?? 40);

/** Every convertible office document of the corpus (the password-protected ones left out). */
function documents(): string[] {
  const dir = join(corpus, 'office');
  return readdirSync(dir)
    .filter((f) => !f.endsWith('.txt') && !/password|protected/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

async function convertWarm(file: string): Promise<void> {
  const form = new FormData();
  form.append('files', await openAsBlob(file), basename(file));
  const res = await fetch(`http://127.0.0.1:${port}/forms/libreoffice/convert`, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`${basename(file)}: ${res.status} ${await res.text()}`);
  const pdf = Buffer.from(await res.arrayBuffer());
  if (!pdf.subarray(0, 8).includes('%PDF-')) throw new Error(`${basename(file)}: not a PDF`);
}

/** What the service would replace: a fresh soffice process per document, on its own profile. */
async function convertCold(file: string, profile: string, out: string): Promise<void> {
  await run(
    'soffice',
    [
      '--headless',
      '--invisible',
      '--norestore',
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      '--convert-to',
      'pdf',
      '--outdir',
      out,
      file,
    ],
    { timeout: 120_000 },
  );
  const pdf = join(out, basename(file).replace(/\.[^.]+$/, '.pdf'));
  if (statSync(pdf).size === 0) throw new Error(`${basename(file)}: empty PDF`);
}

/** Documents per second, `jobs` conversions kept `concurrency` at a time. */
async function throughput(
  files: string[],
  concurrency: number,
  convert: (f: string) => Promise<void>,
  jobs = throughputJobs,
): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs) {
        const i = next++;
        await convert(files[i % files.length]!);
      }
    }),
  );
  return jobs / (Number(process.hrtime.bigint() - started) / 1e9);
}

function loadAverage(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

export async function benchOffice(): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-office-'));
  const files = documents();
  const small = files.filter((f) => statSync(f).size <= smallBytes);
  const loadBefore = loadAverage();

  // Cold: its own profile, made once by a first conversion that is not counted.
  const profile = join(dir, 'cold-profile');
  const coldOut = join(dir, 'cold-out');
  await convertCold(small[0]!, profile, coldOut);
  const cold: number[] = [];
  for (const f of small) cold.push(await time(() => convertCold(f, profile, coldOut)));
  // Two cold conversions side by side need two profiles (one profile is one office process).
  const profile2 = join(dir, 'cold-profile-2');
  await convertCold(small[0]!, profile2, coldOut);
  const coldPerSecond2 = await (async () => {
    const profiles = [profile, profile2];
    let next = 0;
    const jobs = Math.min(8, small.length * 2);
    const started = process.hrtime.bigint();
    await Promise.all(
      profiles.map(async (p) => {
        while (next < jobs) {
          const i = next++;
          await convertCold(small[i % small.length]!, p, coldOut);
        }
      }),
    );
    return jobs / (Number(process.hrtime.bigint() - started) / 1e9);
  })();

  const rows: { instances: number; p50Small: number; p50All: number; perSecond: number; peakMb: number }[] = [];
  // One document at a time does not depend on the number of listeners: both runs' samples count.
  const warmSmall: number[] = [];
  for (const instances of [1, 2]) {
    const service = await startService('office', port, {
      OFFICE_INSTANCES: String(instances),
      WORK_DIR: join(dir, `work-${instances}`),
    });
    try {
      for (const f of files) await convertWarm(f); // each document's import filter loaded once
      const all: number[] = [];
      const smallTimes: number[] = [];
      for (let r = 0; r < rounds; r++) {
        for (const f of files) {
          const s = await time(() => convertWarm(f));
          all.push(s);
          if (small.includes(f)) {
            smallTimes.push(s);
            warmSmall.push(s);
          }
        }
      }
      // Twice as many clients as listeners, so none waits for a client.
      const perSecond = await throughput(small, instances * 2, convertWarm);
      rows.push({
        instances,
        p50Small: median(smallTimes),
        p50All: median(all),
        perSecond,
        peakMb: peakRssMb(service.pid!),
      });
    } finally {
      service.kill('SIGTERM');
      await new Promise((r) => service.once('exit', r));
    }
  }
  rmSync(dir, { recursive: true, force: true });

  const coldP50 = median(cold);
  const two = rows.find((r) => r.instances === 2)!;
  const one = rows.find((r) => r.instances === 1)!;
  const warmP50 = median(warmSmall);
  const ratio = coldP50 / warmP50;
  const loadAfter = loadAverage();
  const summary = [
    `### office: ${files.length} corpus documents (${small.length} of them ≤ ${smallBytes / 1024} KB), ${rounds} rounds, 2 cores`,
    '',
    '| | p50 small docs (s) | p50 all docs (s) | docs/s | node process peak MB |',
    '|---|---|---|---|---|',
    `| cold \`soffice --convert-to\`, own profile | ${coldP50.toFixed(3)} | | ${(1 / coldP50).toFixed(2)} (1 at a time), ${coldPerSecond2.toFixed(2)} (2 at a time) | |`,
    ...rows.map(
      (r) =>
        `| office service, ${r.instances} listener${r.instances > 1 ? 's' : ''} | ${r.p50Small.toFixed(3)} | ${r.p50All.toFixed(3)} | ${r.perSecond.toFixed(2)} | ${r.peakMb.toFixed(0)} |`,
    ),
    '',
    `Warm p50 on small docs, one at a time: ${warmP50.toFixed(3)} s over both runs (target ≤ 0.25 s); ${ratio.toFixed(1)}× faster than cold (target ≥ 8×);`,
    `throughput ${two.perSecond.toFixed(2)} docs/s with 2 listeners (target ≥ 4 on 2 cores), ${one.perSecond.toFixed(2)} with 1.`,
    `Machine load average during the run: ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after (2 cores; other work was running).`,
  ].join('\n');
  return {
    name: 'office',
    summary,
    data: {
      rounds,
      files: files.map((f) => basename(f)),
      small: small.map((f) => basename(f)),
      coldP50,
      coldPerSecond2,
      cold,
      warmP50,
      rows,
      ratio,
      loadBefore,
      loadAfter,
    },
  };
}
