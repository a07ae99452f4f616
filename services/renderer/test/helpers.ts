import { execFileSync } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { expect } from 'vitest';
import { createApp, createRenderer, type Renderer, type RendererSettings } from '../src/index.ts';

export const corpusHtml = new URL('../../../../shared/corpus/html/', import.meta.url).pathname;

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The JSON error, when the answer is one. */
  error?: { code: string; message: string };
  properties: Record<string, unknown>;
  /** Where the PDF was saved, when the answer is one. */
  pdf?: string;
}

/** This test file's own scratch folder: outputs and zips go here, and `removeScratch` takes it away. */
const scratch = mkdtempSync(join(tmpdir(), 'renderer-test-'));
let outputs = 0;
let zips = 0;

export function removeScratch(): void {
  rmSync(scratch, { recursive: true, force: true });
}

/** A test file's renderer and its in-process app, working in a folder of its own. */
export interface TestRenderer {
  renderer: Renderer;
  app: Express;
  workDir: string;
  /**
   * Closes the renderer, then `others` (the file's listeners), and removes the scratch folder; fails
   * if a request's work directory outlived its response, as none should.
   */
  stop(...others: { close(): Promise<void> }[]): Promise<void>;
}

/** Starts a renderer in a fresh work folder (`renderer-<name>-work-…`); it resolves once the browser is warm. */
export async function startRenderer(name: string, settings: Partial<RendererSettings> = {}): Promise<TestRenderer> {
  const workDir = mkdtempSync(join(tmpdir(), `renderer-${name}-work-`));
  process.env.WORK_DIR = workDir;
  const renderer = createRenderer(settings);
  const app = createApp(renderer);
  await renderer.supervisor.warm();
  const stop = async (...others: { close(): Promise<void> }[]) => {
    await renderer.close();
    removeScratch();
    await Promise.all(others.map((o) => o.close()));
    expect(await settledLeftovers(workDir)).toEqual([]);
    rmSync(workDir, { recursive: true, force: true });
  };
  return { renderer, app, workDir, stop };
}

/** Calls a tool of the in-process app as the gateway would, and saves a PDF answer to a file. */
export async function call(
  app: Express,
  tool: string,
  input: { file?: string; url?: string; fields?: Record<string, string> },
): Promise<Answer> {
  let req = request(app).post(`/tools/${tool}`);
  if (input.file) req = req.attach('file', input.file);
  if (input.url !== undefined) req = req.field('url', input.url);
  for (const [k, v] of Object.entries(input.fields ?? {})) req = req.field(k, v);
  const res = await req.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (d: Buffer) => chunks.push(d));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  const body = res.body as Buffer;
  const answer: Answer = {
    status: res.status,
    headers: res.headers as Record<string, string>,
    body,
    properties: res.headers['x-quire-properties']
      ? (JSON.parse(res.headers['x-quire-properties'] as string) as Record<string, unknown>)
      : {},
  };
  if (res.status === 200 && body.subarray(0, 5).toString() === '%PDF-') {
    answer.pdf = join(scratch, `out-${++outputs}.pdf`);
    writeFileSync(answer.pdf, body);
  } else {
    try {
      answer.error = (JSON.parse(body.toString()) as { error: Answer['error'] }).error;
    } catch {
      /* not JSON */
    }
  }
  return answer;
}

export interface ZipEntry {
  name: string;
  data?: string;
  /** Bytes of zeros instead of data (for bombs). */
  zeros?: number;
  /** A symbolic link to this target. */
  link?: string;
  /** The bytes of this file. */
  file?: string;
}

/** Writes a zip with Python's zipfile, which lets a test write the names and links an attacker would. */
export function makeZip(entries: ZipEntry[]): string {
  const dir = join(scratch, `zip-${++zips}`);
  mkdirSync(dir);
  const path = join(dir, 'site.zip');
  const script = `
import json, sys, zipfile
entries = json.loads(sys.stdin.read())
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    for e in entries:
        info = zipfile.ZipInfo(e['name'])
        info.compress_type = zipfile.ZIP_DEFLATED
        if e.get('link') is not None:
            info.create_system = 3
            info.external_attr = (0o120777 << 16)
            z.writestr(info, e['link'])
        elif e.get('zeros') is not None:
            info.external_attr = (0o100644 << 16)
            with z.open(info, 'w') as f:
                chunk = bytes(1024 * 1024)
                left = e['zeros']
                while left > 0:
                    n = min(left, len(chunk))
                    f.write(chunk[:n])
                    left -= n
        elif e.get('file') is not None:
            info.external_attr = (0o100644 << 16)
            z.writestr(info, open(e['file'], 'rb').read())
        else:
            info.external_attr = (0o100644 << 16)
            z.writestr(info, e.get('data', ''))
`;
  execFileSync('python3', ['-c', script, path], { input: JSON.stringify(entries) });
  return path;
}

/** Rewrites every declared uncompressed size in a zip (local headers and central directory) to `size`. */
export function lieAboutSizes(path: string, size: number): string {
  const buf = readFileSync(path);
  for (let i = 0; i + 4 <= buf.length; i++) {
    const sig = buf.readUInt32LE(i);
    if (sig === 0x04034b50) buf.writeUInt32LE(size, i + 22);
    else if (sig === 0x02014b50) buf.writeUInt32LE(size, i + 24);
  }
  const out = path.replace(/\.zip$/, '-lies.zip');
  writeFileSync(out, buf);
  return out;
}

export interface Trap {
  port: number;
  udpPort: number;
  /** Everything that reached the trap: HTTP requests, upgrades, raw connections, UDP datagrams. */
  hits: string[];
  close(): Promise<void>;
}

/**
 * A listener on 127.0.0.1 (and ::1 on the same port when the machine has IPv6 loopback) that records
 * anything that reaches it: the SSRF tests expect it to stay empty.
 */
export async function startTrap(): Promise<Trap> {
  const hits: string[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('trap');
  };
  const v4 = http.createServer(handler);
  v4.on('connection', () => hits.push('tcp'));
  v4.on('upgrade', (req, socket) => {
    hits.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((r) => v4.listen(0, '127.0.0.1', r));
  const port = (v4.address() as AddressInfo).port;
  const v6 = http.createServer(handler);
  v6.on('connection', () => hits.push('tcp6'));
  await new Promise<void>((r) => {
    v6.once('error', () => r());
    v6.listen(port, '::1', r);
  });
  const udp = dgram.createSocket('udp4');
  udp.on('message', (m) => hits.push(`udp ${m.length}`));
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  return {
    port,
    udpPort: udp.address().port,
    hits,
    close: async () => {
      await Promise.all([
        new Promise((r) => v4.close(r)),
        new Promise((r) => (v6.listening ? v6.close(r) : r(undefined))),
        new Promise((r) => udp.close(() => r(undefined))),
      ]);
    },
  };
}

/** A small web site on 127.0.0.1 for URL tools (reachable only through the test-only allow list). */
export async function startSite(
  routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>,
): Promise<{ port: number; origin: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const path = (req.url ?? '/').split('?')[0]!;
    const route = routes[path];
    if (route) return route(req, res);
    res.statusCode = 404;
    res.end('missing');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function html(res: http.ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
}

/** Files left under a directory, recursively. */
export function leftovers(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true }).map(String);
  } catch {
    return [];
  }
}

/**
 * Files left under a directory once the requests' folders, removed just after their answers, have had
 * time to go: polled, within a bound that only a leak reaches.
 */
export async function settledLeftovers(dir: string, ms = 30_000): Promise<string[]> {
  for (const end = Date.now() + ms; leftovers(dir).length > 0 && Date.now() < end;) await sleep(100);
  return leftovers(dir);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Facts about a PDF, read with qpdf and poppler, as the tests check outputs. */
export function pageCount(path: string): number {
  return Number(execFileSync('qpdf', ['--show-npages', path]).toString().trim());
}

export function text(path: string, opts: { first?: number; last?: number } = {}): string {
  const args = ['-q', '-enc', 'UTF-8'];
  if (opts.first) args.push('-f', String(opts.first));
  if (opts.last) args.push('-l', String(opts.last));
  return execFileSync('pdftotext', [...args, path, '-'], { maxBuffer: 64 * 1024 * 1024 }).toString();
}

export function words(s: string): string[] {
  return s.split(/\s+/).filter(Boolean);
}

/** pdfinfo's fields of the document (its first page for sizes). */
export function info(path: string): Record<string, string> {
  const out = execFileSync('pdfinfo', [path]).toString();
  return Object.fromEntries(
    out
      .split('\n')
      .map((l) => /^([^:]+):\s*(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!.trim(), m[2]!.trim()]),
  );
}
