/**
 * The corpus sweep: every file of ../shared/corpus (tables: their PDFs) through every tool whose catalog
 * entry accepts the file's kind, judged by content as the services judge it (a PNG named .pdf is a PNG),
 * and through two tools that do not, which must answer 415 unsupported_type. Encrypted PDFs and
 * password-protected Office files go without their password, with it and with a wrong one. Each answer
 * must be a 200 whose result opens (PDF: qpdf --check and pages; zip: every entry opens; Office: the
 * package's main part; images decode; text is UTF-8, and not empty when the input has text) or a 4xx in
 * the contract's shape with the code the file calls for; never a 5xx, never longer than the job's time limit
 * allows. Afterwards the work directories are empty and no gateway or service process was
 * restarted (the engines they run, LibreOffice and Chromium, may be replaced by design).
 *
 * To stay within CI's time, a PDF (but a damaged one) goes through every pdf-editor tool but compress
 * and through one of the tools that rework every page in turn (see `reworksPages`); CORPUS_SWEEP=full
 * sends it through all of them. Each call's time is in .run/corpus-sweep.json after a run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { kindOfExtension, readsOffice, tools, type FileKind, type Tool } from '@quire/catalog';
import { sniffKind, uploadKind } from '@quire/detect';
import { VerificationError } from '@quire/pdf';
import { repoRoot } from '../../scripts/stack.ts';
import { corpusFiles, type CorpusFile } from '../lib/corpus.ts';
import {
  companionFile,
  contractProblem,
  opens,
  requiredFields,
  resultPassword,
  settledLeftovers,
  toolsFor,
  type Answer,
} from '../lib/outcomes.ts';
import { isEncrypted, qpdfCheck, words } from '../lib/pdf.ts';
import { proc, stillRunning, type Proc } from '../lib/procs.ts';

/** The services' job limit (the stack's default) and what the gateway adds before it gives up. */
const jobTimeoutMs = Number(process.env.JOB_TIMEOUT_MS || 120_000);
/** No call may take longer: the job's limit, the gateway's 30 s on top, and room for upload and download. */
const boundMs = jobTimeoutMs + 30_000 + 30_000;
const concurrency = 2;
/** The message of a made result that failed its checks and was not offered. */
const verificationMessage = new VerificationError('sweep', '').message;
const wrongPassword = 'not-the-password';
/** CORPUS_SWEEP=full: every file through every tool that takes it (several times as long). */
const full = process.env.CORPUS_SWEEP === 'full';

/**
 * The tools that rework every page (Ghostscript's compression, the extractors, rasterizing): a PDF goes
 * through one of them in turn, chosen by its place in its folder, and through every other tool that
 * takes it. Each of them still sees some files of every folder.
 */
const reworksPages = (t: Tool) => t.service !== 'pdf-editor' || t.id === 'pdf-compress' || t.id === 'pdf-to-pdfa';

let base: string;
let processes: { name: string; proc: Proc }[];
let scratch: string;

interface Case {
  /** How the report names it: tool, file and what was sent. */
  label: string;
  tool: Tool;
  file: CorpusFile;
  fields: Record<string, string>;
  /** The answers that are right: '200' or error codes. */
  allowed: string[];
  /** A password that opens the input, to read its text with. */
  password?: string;
  /** What the file is, by its bytes. */
  kind?: FileKind;
}

interface Call {
  label: string;
  status: number;
  code?: string;
  ms: number;
}
const calls: Call[] = [];
const started = Date.now();

/** What the file is by its bytes, as the services judge it; by its name when the bytes do not say (OLE2, damaged). */
async function kindOf(f: CorpusFile): Promise<FileKind | undefined> {
  return (await sniffKind(f.path)) ?? kindOfExtension(extname(f.file).slice(1));
}

const fileTools = (tools as readonly Tool[]).filter((t) => 'kinds' in t.input);

/** Two tools that do not take this kind: one that takes what the name claims (when it differs), then others in turn. */
async function refusers(f: CorpusFile, kind: FileKind | undefined, named: FileKind | undefined, index: number) {
  // Not the tools that take the file by its bytes, as the gateway judges them (any text is Markdown).
  const takers = await Promise.all(fileTools.map((t) => uploadKind(t, f.path)));
  const others = fileTools.filter((t, i) => (!kind || !toolsFor(kind).includes(t)) && takers[i] === undefined);
  const claimed = named && named !== kind ? others.filter((t) => toolsFor(named).includes(t)) : [];
  const rest = others.filter((t) => !claimed.includes(t));
  const picks = [
    claimed[index % Math.max(1, claimed.length)],
    rest[index % rest.length],
    rest[(index + 7) % rest.length],
  ];
  return [...new Set(picks.filter((t): t is Tool => t !== undefined))].slice(0, 2);
}

/** The page count, from a file qpdf may have to repair on the way (exit 3), or undefined. */
function pageCount(path: string, password?: string): number | undefined {
  const args = [...(password !== undefined ? [`--password=${password}`] : []), '--show-npages', path];
  const out = spawnSync('qpdf', args, { encoding: 'utf8' });
  return [0, 3].includes(out.status ?? -1) ? Number(out.stdout) : undefined;
}

/** Whether a PDF input has words to extract, so that its text result may not be empty. */
function hasText(path: string, password?: string): boolean {
  try {
    const args = ['-q', '-enc', 'UTF-8', '-l', '20', ...(password ? ['-upw', password] : []), path, '-'];
    return words(execFileSync('pdftotext', args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString()).length > 0;
  } catch {
    return false;
  }
}

/** Whether a PDF draws an image pdfimages lists (none, too, for a file it cannot read). */
function hasImages(path: string, password?: string): boolean {
  const args = ['-list', ...(password ? ['-upw', password] : []), path];
  const out = spawnSync('pdfimages', args, { encoding: 'utf8', timeout: 60_000 });
  return out.stdout.split('\n').length > 3;
}

/** A file of no bytes at all. */
const isEmpty = (f: CorpusFile) => statSync(f.path).size === 0;

/**
 * What a damaged PDF may answer, from what the manifest says qpdf --check makes of it: repaired
 * silently, it must work; no PDF header at all, it is not a PDF; otherwise a result or damaged_input.
 * A tool that repairs what it reads (input.damaged) must recover every one of them that holds a PDF.
 */
function damaged(f: CorpusFile, tool: Tool, works: string[]): string[] {
  if (isEmpty(f)) return ['empty_file'];
  if (/qpdf --check exit 0/.test(f.properties)) return works;
  if (/can't find PDF header/.test(f.properties)) return ['unsupported_type'];
  if ('kinds' in tool.input && tool.input.damaged) return works;
  return [...works, 'damaged_input', ...(tool.id === 'pdf-page-remove' ? ['invalid_option'] : [])];
}

/** The cases for one corpus file: its accepting tools (with each password variant) and two refusers. */
async function casesFor(f: CorpusFile, index: number): Promise<Case[]> {
  const kind = await kindOf(f);
  const named = kindOfExtension(extname(f.file).slice(1));
  const accepting = kind ? toolsFor(kind) : [];
  const out: Case[] = [];
  const add = (tool: Tool, allowed: string[], variant: string, password?: string) => {
    const fields = { ...requiredFields[tool.id], ...(password !== undefined ? { password } : {}) };
    out.push({ label: `${tool.id} on ${f.file}${variant}`, tool, file: f, fields, allowed, password, kind });
  };

  const protectedFile = f.locked;
  const opensBare = f.userPassword === '' || /owner password only/.test(f.special);
  const password = f.userPassword || undefined;
  const pages = kind === 'pdf' ? pageCount(f.path, opensBare ? undefined : password) : undefined;
  // Damaged files are mostly refused at once: they take every tool.
  const sampled = full || f.folder === 'pdf-broken' ? accepting : accepting.filter((t) => !reworksPages(t));
  const turn = accepting.filter(reworksPages);
  if (sampled.length < accepting.length && turn.length > 0) sampled.push(turn[index % turn.length]!);
  for (const tool of sampled) {
    // Removing the only page is refused, rightly: the file had to be opened to know it.
    const works = tool.id === 'pdf-page-remove' && pages === 1 ? ['invalid_option'] : ['200'];
    // A file the manifest says must be rejected (a pixel bomb) may be, as damaged_input.
    if (/must be rejected/.test(f.special)) works.push('damaged_input');
    // OCR reads up to a number of pages, and of pixels a page: past them, a clear refusal.
    if (tool.id === 'pdf-ocr' || tool.id === 'compare-pdf') works.push('file_too_large');
    // No PDF/A copy keeps the text of a font the file does not hold, or of glyphs Ghostscript cannot
    // map (emoji drawn by a Type 3 font): said, not offered.
    if (tool.id === 'pdf-to-pdfa') works.push('cannot_convert');
    // A PDF that draws no image has nothing to extract: said, not answered with an empty zip.
    if (tool.id === 'extract-images' && !hasImages(f.path, password)) works.splice(0, works.length, 'unsupported_type');
    // An image alone is no PDF to sign: Sign PDF takes it only beside one.
    if (tool.id === 'sign-pdf' && kind !== 'pdf') works.splice(0, works.length, 'missing_file');
    if (f.folder === 'pdf-broken' && kind === 'pdf') add(tool, damaged(f, tool, works), '');
    else if (!protectedFile || opensBare) add(tool, works, '');
    else add(tool, ['password_required'], ' without its password');
    if (protectedFile && password !== undefined) add(tool, works, ' with its password', password);
    if (protectedFile && !opensBare) add(tool, ['wrong_password'], ' with a wrong password', wrongPassword);
  }
  for (const tool of await refusers(f, kind, named, index)) {
    // An encrypted Office package does not show what it holds before it is opened.
    const asks = protectedFile && readsOffice(tool) ? ['password_required'] : [];
    // An empty file is said to be empty before anything is said of its kind.
    add(tool, isEmpty(f) ? ['empty_file'] : ['unsupported_type', ...asks], ' (not its kind)');
  }
  return out;
}

/** Posts one case through nginx and the gateway, with the files the tool needs (merge: the file twice). */
async function send(c: Case): Promise<Answer & { ms: number }> {
  const form = new FormData();
  const min = 'kinds' in c.tool.input ? c.tool.input.min : 1;
  for (let i = 0; i < Math.max(1, min); i++)
    form.append('file', await openAsBlob(c.file.path), c.file.file.split('/').pop());
  const companion = await companionFile(c.tool, c.kind);
  if (companion) form.append('file', companion, 'companion.png');
  for (const [k, v] of Object.entries(c.fields)) form.append(k, v);
  const t0 = Date.now();
  const res = await fetch(`${base}/api/v1/tools/${c.tool.id}`, {
    method: 'POST',
    body: form,
    signal: AbortSignal.timeout(boundMs + 60_000),
  });
  const text = await res.text();
  const ms = Date.now() - t0;
  try {
    return { status: res.status, body: JSON.parse(text) as Answer['body'], ms };
  } catch {
    return { status: res.status, body: { error: { code: 'not JSON', message: text.slice(0, 200) } }, ms };
  }
}

/** What is wrong with a case's answer, or undefined when it is one of the right ones and its result opens. */
async function judge(c: Case, o: Answer & { ms: number }): Promise<string | undefined> {
  if (o.ms > boundMs) return `took ${o.ms} ms, past the ${boundMs} ms bound`;
  const unverified = o.status === 500 && o.body.error?.message === verificationMessage;
  const got = o.status === 200 ? '200' : unverified ? 'unverified' : (o.body.error?.code ?? `status ${o.status}`);
  if (!c.allowed.includes(got)) {
    const what = o.status >= 500 ? `a ${o.status}` : `expected ${c.allowed.join(' or ')}, got ${o.status}`;
    return `${what}: ${JSON.stringify(o.body)}`;
  }
  if (o.status !== 200) return contractProblem(o);
  const name = o.body.download;
  if (!name) return 'a 200 without a download';
  const res = await fetch(`${base}/uploads/${encodeURIComponent(name)}`);
  if (!res.ok) return `its result ${name} answers ${res.status}`;
  const path = join(scratch, name);
  writeFileSync(path, Buffer.from(await res.arrayBuffer()));
  try {
    const kind = kindOfExtension(extname(name).slice(1));
    // A tool that protects its result is opened with the password it was given; any other is no longer encrypted.
    const locked = resultPassword(c.tool, c.fields);
    const why = await opens(path, kind, locked);
    if (why) return `the result ${name} does not open: ${why}`;
    if (kind === 'pdf' && locked === undefined && c.password !== undefined && isEncrypted(path))
      return 'the result is still encrypted';
    // A repaired PDF is clean: qpdf has nothing left to repair in it.
    if (kind === 'pdf' && c.tool.checks.opens === 'clean' && qpdfCheck(path) !== 0)
      return 'the result still needs repair';
    const textIn = (kind === 'txt' || kind === 'md') && hasText(c.file.path, c.password);
    if (textIn && words(readFileSync(path, 'utf8')).length === 0) return 'no text, though the PDF has some';
    return undefined;
  } finally {
    rmSync(path, { force: true });
  }
}

/** Runs the cases `concurrency` at a time; returns what went wrong, one line a case. */
async function sweep(cases: Case[]): Promise<string[]> {
  const queue = [...cases];
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let c = queue.shift(); c !== undefined; c = queue.shift()) {
        const o = await send(c).catch((err: Error) => err);
        if (o instanceof Error) {
          failures.push(`${c.label}: no answer within ${boundMs + 60_000} ms: ${o.message}`);
          calls.push({ label: c.label, status: 0, ms: boundMs + 60_000 });
          continue;
        }
        calls.push({ label: c.label, status: o.status, code: o.body.error?.code, ms: o.ms });
        const why = await judge(c, o);
        if (why) failures.push(`${c.label}: ${why}`);
      }
    }),
  );
  return failures;
}

/** The corpus's files by folder, with their place in the folder (which decides the refusers and the sample). */
const byFolder = new Map<string, { f: CorpusFile; index: number }[]>();
for (const f of corpusFiles()) {
  if (f.folder === 'tables' && !f.file.endsWith('.pdf')) continue;
  const list = byFolder.get(f.folder) ?? [];
  byFolder.set(f.folder, [...list, { f, index: list.length }]);
}

beforeAll(() => {
  base = inject('baseUrl');
  scratch = mkdtempSync(join(tmpdir(), 'quire-sweep-'));
  processes = Object.entries(inject('stackPids')).map(([name, pid]) => ({ name, proc: proc(pid)! }));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  const byStatus: Record<string, number> = {};
  for (const c of calls) byStatus[c.code ?? String(c.status)] = (byStatus[c.code ?? String(c.status)] ?? 0) + 1;
  const slowest = [...calls].sort((a, b) => b.ms - a.ms).slice(0, 5);
  const seconds = Math.round((Date.now() - started) / 1000);
  writeFileSync(
    join(repoRoot, '.run', 'corpus-sweep.json'),
    `${JSON.stringify({ calls: calls.length, seconds, byStatus, slowest, all: calls }, null, 1)}\n`,
  );
  console.log(
    `corpus sweep: ${calls.length} calls in ${seconds} s; answers ${JSON.stringify(byStatus)}; slowest ${slowest
      .map((c) => `${c.label} ${c.ms} ms`)
      .join(', ')}`,
  );
});

describe('the corpus through every tool', () => {
  for (const folder of ['pdf', 'pdf-broken', 'pdf-encrypted', 'office', 'html', 'images', 'tables']) {
    it(`${folder}: every file through the tools that take it and two that do not`, { timeout: 1_800_000 }, async () => {
      const files = byFolder.get(folder) ?? [];
      expect(files.length, `files in ${folder}`).toBeGreaterThan(10);
      const cases = (await Promise.all(files.map(({ f, index }) => casesFor(f, index)))).flat();
      expect(cases.length).toBeGreaterThan(files.length);
      expect(await sweep(cases)).toEqual([]);
    });
  }

  it('leaves the work directories empty and every service process running', async () => {
    expect(calls.length).toBeGreaterThan(0);
    expect(await settledLeftovers(inject('workDir'))).toEqual([]);
    expect(processes.length).toBeGreaterThanOrEqual(6);
    for (const p of processes) expect(stillRunning(p.proc), `${p.name} was restarted or is gone`).toBe(true);
  });
});
