/**
 * Long documents through pdf-to-word on the real pdf-extract service: a 702-page book (the corpus's
 * 117-page LaTeX lecture notes, six times over, made with qpdf), converted alone (median of 3) and
 * four at once, against bare `pdftotext -layout` on the same file in the same run. pdf-extract's
 * peak resident memory (its pdf.js threads are in the same process) is watched throughout, and the
 * output's tables and headings are counted against the source's: its outline's entries, and its
 * tables as one copy converted alone finds them, times six (a long document should find no more).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpus, median, startService, time, watchMemory, type BenchReport } from './lib.ts';

const port = 13287;
const source = join(corpus, 'pdf/pypdf-geotopo-117-pages.pdf');
const copies = 6;
const runs = Number(process.env.BENCH_RUNS ?? 3);
const targets = { aloneSeconds: 20, peakMb: 600 };

interface Properties {
  pages: number;
  tables: number;
  headings: number;
}

async function pdfToWord(file: string): Promise<Properties> {
  const form = new FormData();
  form.append('file', await openAsBlob(file), 'book.pdf');
  const res = await fetch(`http://127.0.0.1:${port}/tools/pdf-to-word`, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`pdf-to-word: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return JSON.parse(res.headers.get('x-quire-properties') ?? '{}') as Properties;
}

/** CPU seconds a process has used, all its threads: what a conversion costs, however loaded the machine. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [utime, stime] = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 13)
    .map(Number);
  return (utime! + stime!) / 100;
}

/** The entries of a PDF's outline (its bookmarks), at every level. */
function outlineEntries(file: string): number {
  type Entry = { kids: Entry[] };
  const { outlines } = JSON.parse(execFileSync('qpdf', ['--json', '--json-key=outlines', file]).toString()) as {
    outlines: Entry[];
  };
  const count = (list: Entry[]): number => list.reduce((n, e) => n + 1 + count(e.kids), 0);
  return count(outlines);
}

export async function benchLongDocs(): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-long-docs-'));
  const book = join(dir, 'book.pdf');
  execFileSync('qpdf', ['--empty', '--pages', ...Array<string>(copies).fill(source), '--', book], { timeout: 60_000 });
  const pages = Number(execFileSync('qpdf', ['--show-npages', book]).toString());
  const load = [loadavg()[0]!];
  const service = await startService('pdf-extract', port, { WORK_DIR: join(dir, 'work'), JOB_TIMEOUT_MS: '600000' });
  const peaks = watchMemory({ 'pdf-extract': service.pid! });
  try {
    const one = await pdfToWord(source);
    let props: Properties | undefined;
    const alone: number[] = [];
    const cpu: number[] = [];
    const pdftotext: number[] = [];
    for (let i = 0; i < runs; i++) {
      const before = cpuSeconds(service.pid!);
      alone.push(await time(async () => (props = await pdfToWord(book))));
      cpu.push(cpuSeconds(service.pid!) - before);
      pdftotext.push(
        await time(async () =>
          execFileSync('pdftotext', ['-layout', book, join(dir, 'book.txt')], { timeout: 120_000 }),
        ),
      );
    }
    const aloneMb = peaks()['pdf-extract'] ?? 0;
    const four = await Promise.all([0, 1, 2, 3].map(() => time(() => pdfToWord(book))));
    const peakMb = peaks()['pdf-extract'] ?? 0;
    load.push(loadavg()[0]!);
    const data = {
      pages,
      alone,
      cpu,
      pdftotext,
      four,
      aloneMb,
      peakMb,
      output: props!,
      source: { headings: outlineEntries(source) * copies, tablesOneCopy: one.tables * copies },
      machine: { date: new Date().toISOString().slice(0, 10), cores: cpus().length, load },
    };
    return { name: 'long-docs', summary: summarize(data), data };
  } finally {
    service.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

function summarize(d: {
  pages: number;
  alone: number[];
  cpu: number[];
  pdftotext: number[];
  four: number[];
  aloneMb: number;
  peakMb: number;
  output: Properties;
  source: { headings: number; tablesOneCopy: number };
  machine: { date: string; cores: number; load: number[] };
}): string {
  const s = (x: number) => `${x.toFixed(1)} s`;
  const alone = median(d.alone);
  const verdict = (ok: boolean) => (ok ? 'pass' : '**FAIL**');
  return [
    `### long documents: pdf-to-word on a ${d.pages}-page book`,
    '',
    `The corpus's 117-page LaTeX lecture notes six times over, through the pdf-extract service. Alone: **${s(alone)}** median of ${d.alone.length} (target ≤ ${targets.aloneSeconds} s: ${verdict(alone <= targets.aloneSeconds)}), ${s(median(d.cpu))} of CPU (pdf-extract's threads together), ${(alone / median(d.pdftotext)).toFixed(1)}× bare \`pdftotext -layout\` on the same file (${s(median(d.pdftotext))}). Four at once (pdf-extract lays out at most \`EXTRACT_PAGES_AT_ONCE\` pages at a time, 500 by default, so the books run in turn): ${d.four.map(s).join(', ')}. pdf-extract's peak resident memory, its pdf.js threads included: ${Math.round(d.aloneMb)} MB alone, **${Math.round(d.peakMb)} MB** with four at once (target ≤ ${targets.peakMb} MB: ${verdict(d.peakMb <= targets.peakMb)}).`,
    '',
    `Structure: ${d.output.headings} headings (the source's outline has ${d.source.headings} entries), ${d.output.tables} tables (one copy converted alone: ${d.source.tablesOneCopy / copies}, so ${d.source.tablesOneCopy} for six). Run on ${d.machine.date}, shared ${d.machine.cores}-core machine, load average ${d.machine.load.map((l) => l.toFixed(1)).join(' then ')}. Figures: \`bench/results/long-docs.json\`.`,
  ].join('\n');
}
