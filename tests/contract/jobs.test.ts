import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { defaults } from '@quire/base';
import { constants, errorCodes } from '@quire/catalog';
import { corpusDir } from '../lib/corpus.ts';
import { download, post } from '../lib/http.ts';
import { pageCount, rotations } from '../lib/pdf.ts';
import { descendants, stillRunning, type Proc } from '../lib/procs.ts';
import { unzip } from '../lib/zip.ts';

const eleven = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');
const zeroBytes = join(corpusDir, 'pdf-broken', 'pdfplumber-zero-byte.pdf');
const scan = join(corpusDir, 'pdf', 'textract-ocr_text-scanned.pdf');

interface JobView {
  id: string;
  state: string;
  progress: {
    files: { done: number; total: number };
    pages?: { done: number; total: number };
    perFile?: { file: string; state: string; pages?: number; error?: { code: string; message: string } }[];
  };
  result?: {
    download: string;
    properties?: Record<string, unknown>;
    report?: { file: string; outcome: string; result?: string; error?: { code: string; message: string } }[];
  };
  error?: { code: string; message: string };
}

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

async function submit(query: string, files: string[], fields: Record<string, string> = {}): Promise<JobView> {
  const r = await post(`${base}/api/v1/jobs?${query}`, files, fields);
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body as unknown as JobView;
}

async function job(id: string): Promise<JobView> {
  const res = await fetch(`${base}/api/v1/jobs/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as JobView;
}

/** Polls a job until it has ended. */
async function ended(id: string, timeoutMs = 100_000): Promise<JobView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const view = await job(id);
    if (['done', 'failed', 'cancelled'].includes(view.state)) return view;
    if (Date.now() > until) throw new Error(`job ${id} still ${view.state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('jobs through nginx, the gateway, the queue in Redis and the workers', () => {
  it('answers 202 at once, then the job runs the tool: its result is the tool output', async () => {
    const accepted = await submit('tool=rotate-pdf', [eleven], { angle: '180' });
    expect(accepted.id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(accepted.state).toBe('queued');
    const done = await ended(accepted.id);
    expect(done.state).toBe('done');
    expect(done.progress).toEqual({ files: { done: 1, total: 1 }, pages: { done: 11, total: 11 } });
    const { path } = await download(base, done.result!.download);
    expect(pageCount(path)).toBe(11);
    expect(rotations(path).every((r) => r === 180)).toBe(true);
    // The same result through the job's own address.
    const again = await fetch(`${base}/api/v1/jobs/${accepted.id}/result`);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer())).toEqual(readFileSync(path));
  });

  it('streams the job as Server-Sent Events, in order, ending with the job', async () => {
    const { id } = await submit('tool=rotate-pdf', [eleven]);
    const res = await fetch(`${base}/api/v1/jobs/${id}/events`);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text()).split('\n\n').filter((e) => e.startsWith('id:'));
    const numbers = events.map((e) => Number(/^id: (\d+)/.exec(e)![1]));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const states = events.map((e) => /event: (\w+)/.exec(e)![1]!);
    const order = ['queued', 'running', 'done'];
    expect(states.map((s) => order.indexOf(s))).toEqual([...states.map((s) => order.indexOf(s))].sort());
    expect(states.at(-1)).toBe('done');
  });

  it('runs a batch file by file: a broken file is reported with its error code, the others are zipped', async () => {
    const accepted = await submit('steps=rotate-pdf,pdf-compress', [eleven, zeroBytes, eleven]);
    const done = await ended(accepted.id);
    expect(done.state).toBe('done');
    const report = done.result!.report!;
    expect(report.map((r) => r.outcome)).toEqual(['ok', 'failed', 'ok']);
    expect(report[1]!.file).toBe('pdfplumber-zero-byte.pdf');
    expect(Object.keys(errorCodes)).toContain(report[1]!.error!.code);
    const dir = unzip((await download(base, done.result!.download)).path);
    const zipped = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { files: typeof report };
    expect(zipped.files).toEqual(report);
    for (const entry of report.filter((r) => r.outcome === 'ok')) {
      expect(pageCount(join(dir, entry.result!))).toBe(11);
    }
  });

  it("shows each file of a batch in progress.perFile, and sends each file's result on its own", async () => {
    const four = join(corpusDir, 'pdf', 'pypdf-pdflatex-4-pages.pdf');
    const accepted = await submit('tool=rotate-pdf', [eleven, zeroBytes, four], { angle: '270' });
    // Refused at once, the empty file has failed before the job runs; the others wait with their pages.
    expect(accepted.progress.perFile).toEqual([
      { file: 'qpdf-11-pages.pdf', state: 'queued', pages: 11 },
      { file: 'pdfplumber-zero-byte.pdf', state: 'failed', error: { code: 'empty_file', message: expect.any(String) } },
      { file: 'pypdf-pdflatex-4-pages.pdf', state: 'queued', pages: 4 },
    ]);
    const done = await ended(accepted.id);
    expect(done.progress.perFile!.map((f) => f.state)).toEqual(['done', 'failed', 'done']);
    expect(done.progress.perFile![1]!.error).toEqual(done.result!.report![1]!.error);

    const files = `${base}/api/v1/jobs/${accepted.id}/files`;
    const third = await fetch(`${files}/3`);
    expect(third.status).toBe(200);
    expect(third.headers.get('content-type')).toBe('application/pdf');
    expect(third.headers.get('content-disposition')).toContain(done.result!.report![2]!.result!);
    const path = join(tmpdir(), `quire-job-file-${accepted.id}.pdf`);
    writeFileSync(path, Buffer.from(await third.arrayBuffer()));
    expect(pageCount(path)).toBe(4);
    expect(rotations(path).every((r) => r === 270)).toBe(true);
    // The same bytes as the zip's entry: one stored copy, read in place.
    const dir = unzip((await download(base, done.result!.download)).path);
    expect(readFileSync(path)).toEqual(readFileSync(join(dir, done.result!.report![2]!.result!)));

    const failed = await fetch(`${files}/2`);
    expect(failed.status).toBe(400);
    expect(((await failed.json()) as { error: { code: string } }).error.code).toBe('empty_file');
    for (const n of ['4', '0', 'report.json', '..%2F..%2Fetc%2Fpasswd']) {
      const none = await fetch(`${files}/${n}`);
      expect(none.status, n).toBe(404);
    }
    // Only whoever holds the job's id: another id finds nothing.
    expect((await fetch(`${base}/api/v1/jobs/AAAAAAAAAAAAAAAAAAAAAAAA/files/1`)).status).toBe(404);
  });

  it('cancels a running OCR job: its engine processes are gone and it has no result', async () => {
    const ocrService = inject('stackPids')['pdf-extract']!;
    // The service's own helpers (its spawner, tsx's esbuild) are there before and after.
    const helpers = new Set(descendants(ocrService).map((p) => `${p.pid}:${p.start}`));
    const engines = () => descendants(ocrService).filter((p) => !helpers.has(`${p.pid}:${p.start}`));
    const { id } = await submit('tool=pdf-ocr', [scan, scan, scan]);
    const until = Date.now() + 60_000;
    let started: Proc[] = [];
    while ((started = engines()).length === 0) {
      if (Date.now() > until) throw new Error('the OCR engine never started');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await job(id)).state).toBe('running');
    const cancel = await fetch(`${base}/api/v1/jobs/${id}`, { method: 'DELETE' });
    expect(cancel.status).toBe(200);
    expect(((await cancel.json()) as JobView).state).toBe('cancelled');
    const gone = Date.now() + 15_000;
    while (started.some(stillRunning) || engines().length > 0) {
      if (Date.now() > gone) throw new Error(`engines still running: ${JSON.stringify(engines())}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const result = await fetch(`${base}/api/v1/jobs/${id}/result`);
    expect(result.status).toBe(410);
    expect(((await result.json()) as { error: { code: string } }).error.code).toBe('job_cancelled');
  });

  it("reads a scan longer than one call's OCR allows as a job, its pages read told as they go", async () => {
    // Scanned half pages (the top of the corpus scan's first, 150 dpi): one more than a tool call reads.
    const most = Math.floor(defaults.jobTimeoutMs / constants.ocrPageMs);
    const n = most + 1;
    const dir = mkdtempSync(join(tmpdir(), 'jobs-long-scan-'));
    const top = join(dir, 'top');
    const crop = ['-x', '0', '-y', '0', '-W', '1240', '-H', '900'];
    execFileSync('pdftoppm', ['-q', '-r', '150', '-gray', '-png', '-singlefile', '-l', '1', ...crop, scan, top]);
    const page = join(dir, 'page.pdf');
    const toPdf = 'import img2pdf, sys\nopen(sys.argv[2], "wb").write(img2pdf.convert(sys.argv[1]))';
    execFileSync('/usr/bin/python3', ['-c', toPdf, `${top}.png`, page]);
    const long = join(dir, 'long.pdf');
    execFileSync('qpdf', ['--empty', '--pages', page, Array(n).fill('1').join(','), '--', long]);
    expect(pageCount(long)).toBe(n);

    const refused = await post(`${base}/api.php?tool=pdf-ocr`, [long]);
    expect(refused.status).toBe(413);
    expect(refused.body.error?.message).toContain(`at most ${most} pages`);

    const { id } = await submit('tool=pdf-ocr', [long]);
    const seen = new Set<number>();
    let view: JobView;
    const until = Date.now() + 300_000;
    while (!['done', 'failed', 'cancelled'].includes((view = await job(id)).state)) {
      if (view.progress.pages) seen.add(view.progress.pages.done);
      if (Date.now() > until) throw new Error(`job ${id} still ${view.state}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(view.state, JSON.stringify(view.error)).toBe('done');
    // Pages counted while OCRmyPDF read them, not only at the end.
    expect([...seen].filter((done) => done > 0 && done < n).length).toBeGreaterThan(0);
    expect(view.result!.properties).toMatchObject({ pages: n, pagesWithoutText: [] });
    expect((view.result!.properties!.ocrPages as number[]).length).toBe(n);
    const { path } = await download(base, view.result!.download);
    const text = execFileSync('pdftotext', ['-q', '-f', `${n}`, '-l', `${n}`, path, '-']).toString();
    expect(text).toMatch(/September 2004/);
    rmSync(dir, { recursive: true, force: true });
  }, 320_000);

  it('answers clear errors: no such job, a webhook to a private address, too many files', async () => {
    const none = await fetch(`${base}/api/v1/jobs/AAAAAAAAAAAAAAAAAAAAAAAA`);
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('not_found');

    const hook = await post(`${base}/api/v1/jobs?tool=rotate-pdf`, [eleven], { webhook: 'http://127.0.0.1:8080/x' });
    expect(hook.status).toBe(403);
    expect(hook.body.error?.code).toBe('url_blocked');

    const many = await post(`${base}/api/v1/jobs?tool=rotate-pdf`, Array<string>(21).fill(zeroBytes));
    expect(many.status).toBe(400);
    expect(many.body.error?.code).toBe('too_many_files');
  });
});
