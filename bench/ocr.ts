/**
 * OCR: Quire's pdf-ocr, and pdf-to-text reading scans by OCR, (through the real pdf-extract service)
 * against bare OCRmyPDF (`ocrmypdf --sidecar`, its defaults) on the same files in the same run. Accuracy: word F1 (precision and
 * recall, each word matched at most once; words lowercased, punctuation around them dropped) and
 * character accuracy of pdftotext on pdf-ocr's result and on bare OCRmyPDF's, of pdf-to-text's text and of OCRmyPDF's sidecar, against the known
 * text: the corpus scan (decrypted) against its expected text, and scans made here from digital corpus
 * pages (rendered at 200 dpi, turned 1.5°, grey noise, JPEG at quality 70, back to PDF) against
 * pdftotext of the digital pages. Speed: pages per second of both on one 10-page made scan, best of
 * two runs each, alternated. Target: pdf-ocr at least 0.9× bare OCRmyPDF's speed, and as accurate.
 */
import { execFile, execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { charAccuracy, prf, type PRF } from '../tests/lib/fidelity/measures.ts';
import { corpus, startService, time, watchTreeMemory, type BenchReport } from './lib.ts';

const port = 13261;
const dpi = 200;
const skewDegrees = 1.5;
const noiseSigma = 12;
const jpegQuality = 70;
const speedRuns = 2;

/** Digital corpus files made into scans, with the pages taken; the first ten pages of them all make the speed scan. */
const madeFrom: [string, string][] = [
  ['textract-raw_text.pdf', '1-2'],
  ['textract-two_column.pdf', '1-6'],
  ['pypdf-pdflatex-4-pages.pdf', '1-4'],
];

interface Score {
  wordF1: number;
  wordPrecision: number;
  wordRecall: number;
  charAccuracy: number;
}
interface Row {
  file: string;
  pages: number;
  quire: Score;
  /**
   * pdf-ocr's text layer in the order it is written (pdftotext -raw); pdftotext's default re-orders it
   * by its layout.
   */
  layer: Score;
  /** pdf-to-text's own OCR (ocr=auto). */
  reading: Score;
  /** Bare OCRmyPDF's PDF read by pdftotext as pdf-ocr's is: the same reader on both. */
  ocrmypdfPdf: Score;
  /** Bare OCRmyPDF's sidecar: Tesseract's text in its own order. */
  ocrmypdf: Score;
}

const words = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);

/** Found words against true ones, each true word matched at most once. */
function wordMatch(found: string, truth: string): PRF {
  const pool = new Map<string, number>();
  const expected = words(truth);
  for (const w of expected) pool.set(w, (pool.get(w) ?? 0) + 1);
  const got = words(found);
  let correct = 0;
  for (const w of got) {
    const n = pool.get(w) ?? 0;
    if (n === 0) continue;
    correct++;
    pool.set(w, n - 1);
  }
  return prf(correct, expected.length, got.length);
}

function score(found: string, truth: string): Score {
  const w = wordMatch(found, truth);
  return { wordF1: w.f1, wordPrecision: w.precision, wordRecall: w.recall, charAccuracy: charAccuracy(found, truth) };
}

const pdftotext = (file: string, args: string[] = []) =>
  execFileSync('pdftotext', ['-q', '-enc', 'UTF-8', ...args, file, '-'], { maxBuffer: 64 << 20 }).toString();

/** Deterministic noise, so each run scores the same scans. */
function noise(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** One rendered page as a scan would give it: turned a little, grainy, JPEG. */
async function scanned(png: string, seed: number, resolution: number): Promise<Buffer> {
  const turned = await sharp(png).rotate(skewDegrees, { background: '#ffffff' }).greyscale().raw().toBuffer({
    resolveWithObject: true,
  });
  const random = noise(seed);
  const pixels = turned.data;
  for (let i = 0; i < pixels.length; i++) {
    // Box-Muller from two uniforms: Gaussian grain.
    const g = Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());
    pixels[i] = Math.max(0, Math.min(255, pixels[i]! + g * noiseSigma));
  }
  const { width, height } = turned.info;
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .withMetadata({ density: resolution })
    .jpeg({ quality: jpegQuality })
    .toBuffer();
}

/** Pages of a digital PDF made into a scanned PDF at `resolution` dpi, each page one JPEG. */
async function makeScan(source: string, range: string, out: string, dir: string, resolution = dpi): Promise<void> {
  const [first, last] = range.split('-');
  const prefix = join(dir, basename(out, '.pdf'));
  execFileSync('pdftoppm', ['-q', '-gray', '-png', '-r', `${resolution}`, '-f', first!, '-l', last!, source, prefix]);
  const pngs = readdirPngs(dir, basename(prefix));
  const jpegs = await Promise.all(
    pngs.map(async (png, i) => {
      const jpeg = join(dir, `${basename(out, '.pdf')}-${i}.jpg`);
      writeFileSync(jpeg, await scanned(png, i + 1, resolution));
      return jpeg;
    }),
  );
  imagesToPdf(jpegs, out, resolution);
}

function readdirPngs(dir: string, prefix: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.png'))
    .sort()
    .map((f) => join(dir, f));
}

/** JPEGs into one PDF, untouched, each at `resolution` dpi (img2pdf, as OCRmyPDF itself uses). */
function imagesToPdf(images: string[], out: string, resolution: number): void {
  const py = `import img2pdf, sys
layout = img2pdf.get_fixed_dpi_layout_fun((${resolution}, ${resolution}))
open(sys.argv[1], "wb").write(img2pdf.convert(*sys.argv[2:], layout_fun=layout))`;
  execFileSync('/usr/bin/python3', ['-c', py, out, ...images]);
}

/** One call over node:http, which waits as long as the job may run (fetch gives up on headers after 300 s). */
async function callService(tool: string, file: string): Promise<Buffer> {
  const form = new FormData();
  form.append('file', await openAsBlob(file), basename(file));
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const { status, data } = await new Promise<{ status: number; data: Buffer }>((resolve, reject) => {
    const headers = { 'content-type': encoded.headers.get('content-type')!, 'content-length': body.length };
    const req = request({ host: '127.0.0.1', port, path: `/tools/${tool}`, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, data: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
  if (status !== 200) throw new Error(`${tool} on ${basename(file)}: ${status} ${data.toString('utf8')}`);
  return data;
}

async function quire(file: string, out: string): Promise<void> {
  writeFileSync(out, await callService('pdf-ocr', file));
}

/** Bare OCRmyPDF as a person would run it: its defaults, the text beside the PDF. Run apart, so its memory can be watched. */
async function bare(file: string, out: string): Promise<string> {
  const sidecar = `${out}.txt`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PYTHON')));
  await new Promise<void>((resolve, reject) =>
    execFile('ocrmypdf', ['--quiet', '--sidecar', sidecar, file, out], { env, timeout: 1_200_000 }, (err) =>
      err ? reject(err) : resolve(),
    ),
  );
  return readFileSync(sidecar, 'utf8');
}

/** This process's resident memory now, in MB. */
const ownMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

const pagesOf = (file: string) => Number(execFileSync('qpdf', ['--show-npages', file]).toString());

export async function benchOcr(): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ocr-'));
  const work = join(dir, 'work');
  mkdirSync(work);
  const load = [loadavg()[0]!];
  const service = await startService('pdf-extract', port, { WORK_DIR: work, JOB_TIMEOUT_MS: '600000' });
  try {
    // The inputs: the corpus scan decrypted (OCRmyPDF refuses encrypted files), and the made scans.
    const cases: { file: string; path: string; truth: string }[] = [];
    const scan = join(dir, 'textract-ocr_text-scanned.pdf');
    execFileSync('qpdf', ['--decrypt', join(corpus, 'pdf/textract-ocr_text-scanned.pdf'), scan]);
    const truth = readFileSync(join(corpus, 'pdf/textract-ocr_text-scanned.expected.txt'), 'utf8');
    cases.push({ file: 'pdf/textract-ocr_text-scanned.pdf', path: scan, truth });
    for (const [name, range] of madeFrom) {
      const source = join(corpus, 'pdf', name);
      const out = join(dir, `scan-${name}`);
      await makeScan(source, range, out, dir);
      const [first, last] = range.split('-');
      cases.push({
        file: `made from pdf/${name} ${range}`,
        path: out,
        truth: pdftotext(source, ['-f', first!, '-l', last!]),
      });
    }

    const rows: Row[] = [];
    for (const c of cases) {
      const ours = join(dir, 'ours.pdf');
      await quire(c.path, ours);
      const barePdf = join(dir, 'bare.pdf');
      const sidecar = await bare(c.path, barePdf);
      rows.push({
        file: c.file,
        pages: pagesOf(c.path),
        quire: score(pdftotext(ours), c.truth),
        layer: score(pdftotext(ours, ['-raw']), c.truth),
        reading: score((await callService('pdf-to-text', c.path)).toString('utf8'), c.truth),
        ocrmypdfPdf: score(pdftotext(barePdf), c.truth),
        ocrmypdf: score(sidecar, c.truth),
      });
    }

    // Speed: the first ten pages of the made scans, as one file.
    const ten = join(dir, 'ten-pages.pdf');
    execFileSync('qpdf', ['--empty', '--pages', ...cases.slice(1).map((c) => c.path), '--', join(dir, 'all.pdf')]);
    execFileSync('qpdf', ['--empty', '--pages', join(dir, 'all.pdf'), '1-10', '--', ten]);
    const seconds = { quire: Infinity, ocrmypdf: Infinity };
    // Peak memory: the service with the programs it starts, against bare OCRmyPDF's processes (this one's other children).
    const memoryMb = { quire: 0, ocrmypdf: 0 };
    for (let run = 0; run < speedRuns; run++) {
      const ours = watchTreeMemory(service.pid!);
      seconds.quire = Math.min(seconds.quire, await time(() => quire(ten, join(dir, 'ours-10.pdf'))));
      memoryMb.quire = Math.max(memoryMb.quire, ours());
      const theirs = watchTreeMemory(process.pid, [service.pid!]);
      seconds.ocrmypdf = Math.min(seconds.ocrmypdf, await time(() => bare(ten, join(dir, 'bare-10.pdf'))));
      // The bench's own process is not bare OCRmyPDF's: only what it started counts.
      memoryMb.ocrmypdf = Math.max(memoryMb.ocrmypdf, theirs() - ownMb());
    }
    const speed = {
      pages: 10,
      quirePeakMb: memoryMb.quire,
      ocrmypdfPeakMb: memoryMb.ocrmypdf,
      quirePagesPerSecond: 10 / seconds.quire,
      ocrmypdfPagesPerSecond: 10 / seconds.ocrmypdf,
      ratio: seconds.ocrmypdf / seconds.quire,
    };

    // Scale: an A4 scan of 100 pages at 300 dpi (the pdflatex pages, 300 dpi, over and over), once each side.
    const a4 = join(dir, 'a4-300.pdf');
    const long = join(dir, 'long-300.pdf');
    await makeScan(join(corpus, 'pdf', 'pypdf-pdflatex-4-pages.pdf'), '1-4', a4, dir, 300);
    execFileSync('qpdf', ['--empty', '--pages', ...Array<string[]>(25).fill([a4, '1-4']).flat(), '--', long]);
    const oursLong = watchTreeMemory(service.pid!);
    const longQuire = await time(() => quire(long, join(dir, 'ours-long.pdf')));
    const theirsLong = watchTreeMemory(process.pid, [service.pid!]);
    const longBare = await time(() => bare(long, join(dir, 'bare-long.pdf')));
    const longScan = {
      pages: pagesOf(long),
      dpi: 300,
      quireSeconds: longQuire,
      ocrmypdfSeconds: longBare,
      quirePeakMb: oursLong(),
      ocrmypdfPeakMb: theirsLong() - ownMb(),
    };
    load.push(loadavg()[0]!);
    const machine = { date: new Date().toISOString().slice(0, 10), cores: cpus().length, load };
    const data = { rows, speed, seconds, longScan, machine };
    return { name: 'ocr', summary: summarize(rows, speed, longScan, machine), data };
  } finally {
    service.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

const f3 = (x: number) => x.toFixed(3);

function summarize(
  rows: Row[],
  speed: {
    quirePagesPerSecond: number;
    ocrmypdfPagesPerSecond: number;
    ratio: number;
    quirePeakMb: number;
    ocrmypdfPeakMb: number;
  },
  long: {
    pages: number;
    dpi: number;
    quireSeconds: number;
    ocrmypdfSeconds: number;
    quirePeakMb: number;
    ocrmypdfPeakMb: number;
  },
  machine: { date: string; cores: number; load: number[] },
): string {
  const both = (x: Score) => `${f3(x.wordF1)} / ${f3(x.charAccuracy)}`;
  const lines = rows.map(
    (r) =>
      `| ${r.file} | ${r.pages} | ${both(r.quire)} | ${both(r.ocrmypdfPdf)} | ${both(r.layer)} | ${both(r.ocrmypdf)} | ${both(r.reading)} |`,
  );
  // At least equal as the table shows them: to the third decimal, no more.
  const r3 = (x: number) => Number(f3(x));
  const atLeast = (ours: Score, bare: Score) =>
    r3(ours.wordF1) >= r3(bare.wordF1) && r3(ours.charAccuracy) >= r3(bare.charAccuracy);
  // Each of Quire's readings against bare OCRmyPDF's, read the same way where there is one.
  const comparisons: [string, (r: Row) => [Score, Score]][] = [
    ["pdf-ocr's PDF against OCRmyPDF's PDF, both through pdftotext", (r) => [r.quire, r.ocrmypdfPdf]],
    ["pdf-ocr's text layer in its order against the sidecar", (r) => [r.layer, r.ocrmypdf]],
    ["pdf-ocr's PDF through pdftotext against the sidecar", (r) => [r.quire, r.ocrmypdf]],
    ['pdf-to-text against the sidecar', (r) => [r.reading, r.ocrmypdf]],
  ];
  const verdicts = comparisons.map(([what, pair]) => {
    const short = rows.filter((r) => !atLeast(...pair(r))).map((r) => r.file);
    return `- ${what}: ${short.length ? `below on ${short.join(', ')}` : 'at least equal on every file'}.`;
  });
  return [
    '### OCR (pdf-ocr and pdf-to-text against bare OCRmyPDF)',
    '',
    "Word F1 / character accuracy against the known text, same files, same run. Character accuracy is 1 − edit distance / length of the known text, words aligned in order first, so a wrong reading order counts. Each reading of Quire's is set against bare OCRmyPDF's read the same way: pdf-ocr's PDF and OCRmyPDF's PDF through pdftotext (which lays the page out again by its own rules); pdf-ocr's text layer in the order it is written (`pdftotext -raw`) and OCRmyPDF's sidecar (Tesseract's text in Tesseract's order); pdf-to-text, which reads scans by OCR, against the sidecar.",
    '',
    ...verdicts,
    '',
    "| file | pages | pdf-ocr's PDF, pdftotext | OCRmyPDF's PDF, pdftotext | pdf-ocr's layer, text order | OCRmyPDF's sidecar | pdf-to-text |",
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...lines,
    '',
    `Speed on a 10-page made scan: pdf-ocr ${speed.quirePagesPerSecond.toFixed(2)} pages/s, bare OCRmyPDF ${speed.ocrmypdfPagesPerSecond.toFixed(2)} pages/s: ${speed.ratio.toFixed(2)}× (target ≥ 0.9×), best of ${speedRuns} runs each. Peak memory on it (resident, all processes at once): pdf-extract with OCRmyPDF, Tesseract and Ghostscript under it ${speed.quirePeakMb.toFixed(0)} MB, bare OCRmyPDF ${speed.ocrmypdfPeakMb.toFixed(0)} MB.`,
    '',
    `A ${long.pages}-page A4 scan at ${long.dpi} dpi, given the time a job gives it (past a tool call's page limit): pdf-ocr ${long.quireSeconds.toFixed(0)} s, peak ${long.quirePeakMb.toFixed(0)} MB; bare OCRmyPDF ${long.ocrmypdfSeconds.toFixed(0)} s, peak ${long.ocrmypdfPeakMb.toFixed(0)} MB. Run on ${machine.date}, shared ${machine.cores}-core machine, load average ${machine.load.map((l) => l.toFixed(1)).join(' then ')}: other work slows both sides.`,
  ].join('\n');
}
