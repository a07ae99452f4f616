import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { crc32, deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import request from 'supertest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import type { OfficeApp } from '../src/app.ts';

export const corpus = new URL('../../../../shared/corpus/office/', import.meta.url).pathname;
export const office = (name: string) => join(corpus, name);

/** Every document of the corpus's office folder (the ground-truth texts left out). */
export function corpusDocuments(): string[] {
  return readdirSync(corpus)
    .filter((f) => !f.endsWith('.txt'))
    .sort();
}

/** Facts about a PDF, read with qpdf and poppler. */
export function pdfPages(path: string): number {
  return Number(execFileSync('qpdf', ['--show-npages', path]).toString().trim());
}

export function qpdfCheck(path: string): number {
  return spawnSync('qpdf', ['--check', path], { stdio: 'ignore' }).status ?? -1;
}

export function pdfText(path: string): string {
  return execFileSync('pdftotext', ['-q', '-enc', 'UTF-8', path, '-'], { maxBuffer: 64 * 1024 * 1024 }).toString();
}

/** Page sizes in points, from pdfinfo. */
export function pageSize(path: string): { width: number; height: number } {
  const m = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(execFileSync('pdfinfo', [path]).toString());
  return { width: Number(m?.[1]), height: Number(m?.[2]) };
}

/** Raster images drawn in a PDF (pdfimages -list, smasks left out). */
export function imageCount(path: string): number {
  const out = execFileSync('pdfimages', ['-list', path]).toString().split('\n').slice(2);
  return out.filter((l) => /\S/.test(l) && !/\bsmask\b/.test(l)).length;
}

/** Words for comparison: lower case, letters and digits only, so layout and punctuation do not count. */
export function words(text: string): string[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The share of the expected words (with repeats) found in the output. */
export function overlap(expected: string, actual: string): number {
  const have = new Map<string, number>();
  for (const w of words(actual)) have.set(w, (have.get(w) ?? 0) + 1);
  const want = words(expected);
  let found = 0;
  for (const w of want) {
    const n = have.get(w) ?? 0;
    if (n > 0) {
      found++;
      have.set(w, n - 1);
    }
  }
  return want.length ? found / want.length : 1;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Files and directories left under a directory, recursively. */
export function leftovers(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true }).map(String);
  } catch {
    return [];
  }
}

/**
 * Closes an app, then checks that nothing was left behind: request work directories, listener
 * profiles, LibreOffice temp files. Removes the work directory either way.
 */
export async function closeLeavingNothing(app: OfficeApp, work: string): Promise<void> {
  const root = app.engine.settings.root;
  await app.close();
  // A request's folder goes just after its answer: waited for, within a bound that only a leak reaches.
  for (const end = Date.now() + 30_000; (leftovers(work).length > 0 || existsSync(root)) && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    expect(leftovers(work)).toEqual([]);
    expect(existsSync(root)).toBe(false);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A web server on 127.0.0.1 that records every request it gets and answers 404. */
export async function recordingServer(): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A copy of a zip with one entry's text changed, the `mimetype` entry first and stored as ODF wants. */
export async function rewriteZip(
  src: string,
  dest: string,
  entry: string,
  change: (text: string) => string,
): Promise<void> {
  const entries = await new Promise<{ name: string; data: Buffer }[]>((resolve, reject) => {
    yauzl.open(src, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: { name: string; data: Buffer }[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        if (e.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(e, (e2, stream) => {
          if (e2 || !stream) return reject(e2);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.push({ name: e.fileName, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
  const zip = new yazl.ZipFile();
  entries.sort((a, b) => (a.name === 'mimetype' ? -1 : b.name === 'mimetype' ? 1 : 0));
  for (const e of entries) {
    const data = e.name === entry ? Buffer.from(change(e.data.toString('utf8'))) : e.data;
    zip.addBuffer(data, e.name, { compress: e.name !== 'mimetype' });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(dest));
}

/** A small red PNG, for links that must not be followed. */
export function writePng(path: string, size = 40): void {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, Buffer.from([255, 0, 0]))]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  writeFileSync(
    path,
    Buffer.concat([
      Buffer.from('89504e470d0a1a0a', 'hex'),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

/**
 * A Word document long enough that converting it takes LibreOffice seconds: `pages` pages of
 * paragraphs, each page ended by a break. Minimal OOXML, made here so no binary fixture is needed.
 */
export async function writeHeavyDocx(path: string, pages: number): Promise<void> {
  const para = (t: string) => `<w:p><w:r><w:t xml:space="preserve">${t}</w:t></w:r></w:p>`;
  const body: string[] = [];
  for (let p = 1; p <= pages; p++) {
    for (let i = 0; i < 30; i++) body.push(para(`Page ${p}, line ${i}: the quick brown fox jumps over the lazy dog.`));
    body.push('<w:p><w:r><w:br w:type="page"/></w:r></w:p>');
  }
  const zip = new yazl.ZipFile();
  zip.addBuffer(
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '</Types>',
    ),
    '[Content_Types].xml',
  );
  zip.addBuffer(
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
        '</Relationships>',
    ),
    '_rels/.rels',
  );
  zip.addBuffer(
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
        body.join('') +
        '</w:body></w:document>',
    ),
    'word/document.xml',
  );
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
}

/** Posts to Gotenberg's LibreOffice route (documents in `files`, others in their own file fields) and keeps the answer's bytes. */
export async function postGotenberg(
  app: OfficeApp,
  form: {
    files: string[];
    /** A list sends the field once for each value, in order. */
    fields?: Record<string, string | string[]>;
    headers?: Record<string, string>;
    other?: [string, string][];
  },
) {
  let req = request(app).post('/forms/libreoffice/convert');
  for (const [k, v] of Object.entries(form.headers ?? {})) req = req.set(k, v);
  for (const [k, v] of Object.entries(form.fields ?? {})) for (const value of [v].flat()) req = req.field(k, value);
  for (const f of form.files) req = req.attach('files', f);
  for (const [field, f] of form.other ?? []) req = req.attach(field, f);
  const res = await req.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  const body = res.body as Buffer;
  return { res, body, text: body.toString('utf8') };
}

/** A zip's entries, by name. */
export function zipEntries(path: string): Promise<{ name: string; data: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: { name: string; data: Buffer }[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (e2, s) => {
          if (e2 || !s) return reject(e2);
          const chunks: Buffer[] = [];
          s.on('data', (c: Buffer) => chunks.push(c));
          s.on('end', () => {
            out.push({ name: e.fileName, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out.sort((a, b) => a.name.localeCompare(b.name))));
      zip.readEntry();
    });
  });
}
