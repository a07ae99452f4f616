/**
 * Security through the whole stack, where the other tests stop at one layer: the SSRF matrix of odd
 * address forms against the gateway and the renderer itself, with a trap that must hear nothing; a zip
 * bomb and PDF bombs (a thousandfold stream, a 1.6-gigapixel image, a page count of four billion) with
 * the services' memory watched; the upload limit at nginx, the gateway and every service; markup in a
 * file name kept as text, in the API and on the page; security headers on downloads and error answers;
 * forged tokens through nginx. What other tests cover already (the renderer's SSRF and zip tests, the
 * gateway's token and traversal tests, the rate-limit test) is not repeated here.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createDeflate } from 'node:zlib';
import type { Browser } from 'playwright-core';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, toolsOf, type ErrorCode, type ServiceName } from '@quire/catalog';
import { launchBrowser, openPage, visit } from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { post, type CallResult } from '../lib/http.ts';
import { pageCount, qpdfCheck } from '../lib/pdf.ts';
import { descendants, proc, rssMb, stillRunning, type Proc } from '../lib/procs.ts';
import { startScratchStack, type ScratchStack } from '../lib/stack.ts';
import { settledStatus } from '../site/site.ts';

const uploadLimitMb = 3;
/** Resident memory a service (with the programs it runs) may reach while it takes a bomb. */
const rssBoundMb = 1536;
const fourPages = join(corpusDir, 'pdf', 'pypdf-pdflatex-4-pages.pdf');

let stack: ScratchStack;
let trap: { server: Server; port: number; hits: string[] };
let processes: Proc[];

beforeAll(async () => {
  // A listener on every loopback address (IPv4 and IPv6) of one port: no request may ever reach it.
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.headers.host} ${req.url}`);
    res.end('trap');
  });
  await new Promise<void>((r) => server.listen({ port: 0, host: '::', ipv6Only: false }, r));
  trap = { server, port: (server.address() as AddressInfo).port, hits };
  stack = await startScratchStack('security', {
    portOffset: 12_000,
    uploadLimitMb,
    authEmulator: false,
    env: { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
  });
  processes = Object.values(stack.instances).flatMap((list) => list.map((i) => proc(i.pid)!));
});

afterAll(async () => {
  await stack?.remove();
  await new Promise((r) => trap?.server.close(r));
});

/** The contract's error in the shape and status of its code; the code is returned. */
function contractCode(r: CallResult, what: string): ErrorCode {
  expect(Object.keys(r.body), what).toEqual(['error']);
  const code = r.body.error!.code as ErrorCode;
  expect(Object.hasOwn(errorCodes, code), `${what}: ${code}`).toBe(true);
  expect(r.status, what).toBe(errorCodes[code].status);
  return code;
}

async function postUrl(base: string, tool: string, url: string): Promise<CallResult> {
  const form = new FormData();
  form.append('url', url);
  const res = await fetch(`${base}/tools/${tool}`, { method: 'POST', body: form });
  return { status: res.status, headers: res.headers, body: (await res.json()) as CallResult['body'] };
}

describe('URL tools, through the gateway and at the renderer itself', () => {
  it('refuse every local, private or odd form of an address, and the trap hears nothing', async () => {
    const p = trap.port;
    const blocked = [
      // IPv6 forms that carry an IPv4 loopback address: compatible, mapped, NAT64, 6to4, SIIT.
      `http://[::127.0.0.1]:${p}/`,
      `http://[0:0:0:0:0:ffff:7f00:1]:${p}/`,
      `http://[64:ff9b::7f00:1]:${p}/`,
      `http://[2002:7f00:1::1]:${p}/`,
      `http://[::ffff:0:7f00:1]:${p}/`,
      `http://[0:0:0:0:0:0:0:1]:${p}/`,
      // IPv4 written as the URL standard still reads it: octal, hex, one number, padded, a trailing dot,
      // percent-encoded and full-width digits, and 0 (which Linux connects to the machine itself).
      `http://0177.0.0.1:${p}/`,
      `http://0x7f000001:${p}/`,
      `http://017700000001:${p}/`,
      `http://127.000.000.001:${p}/`,
      `http://127.0.0.1.:${p}/`,
      `http://%31%32%37.0.0.1:${p}/`,
      `http://１２７.０.０.１:${p}/`,
      `http://0:${p}/`,
      `HTTP://[::1]:${p}/`,
      // Credentials and look-alike hosts in front of a local one.
      `http://user:secret-word@127.0.0.1:${p}/`,
      `http://example.com@127.0.0.1:${p}/`,
      `http://127.0.0.1:${p}#@example.com/`,
      `http://127.0.0.1:${p}\\@example.com/`,
      // Odd ports of local and metadata addresses.
      'http://127.0.0.1:0/',
      'http://127.0.0.1:65535/',
      'http://[::1]:22/',
      'http://169.254.169.254:8080/latest/meta-data/',
    ];
    // Names that look local but resolve to nothing here: never reached, whichever answer they get.
    const unresolved = [`http://localhost.:${p}/`, `http://sub.localhost:${p}/`];
    const invalid = [
      'http://127.0.0.1:99999/',
      `http://[fe80::1%25lo]:${p}/`,
      `http:/127.0.0.1:${p}/`,
      `http:127.0.0.1:${p}/`,
      `//127.0.0.1:${p}/`,
      `ws://127.0.0.1:${p}/`,
      `blob:http://127.0.0.1:${p}/x`,
      `view-source:http://127.0.0.1:${p}/`,
      'about:blank',
      'chrome://version',
      ' javascript:alert(1)',
    ];
    const places = [`${stack.url}/api/v1`, stack.serviceUrls.renderer!];
    for (const base of places) {
      for (const tool of ['pdf-from-url', 'screenshot-to-pdf']) {
        for (const url of blocked) {
          const r = await postUrl(base, tool, url);
          expect(contractCode(r, `${base} ${tool} ${url}`), url).toBe('url_blocked');
          expect(r.body.error!.message).not.toMatch(/secret|127\.0|::1|169\.254/);
        }
        for (const url of unresolved) {
          expect(['url_blocked', 'url_unreachable']).toContain(contractCode(await postUrl(base, tool, url), url));
        }
        for (const url of invalid) {
          expect(contractCode(await postUrl(base, tool, url), url), url).toBe('invalid_url');
        }
      }
    }
    // Anything late (a retried connection) would show here too.
    await new Promise((r) => setTimeout(r, 500));
    expect(trap.hits).toEqual([]);
  });
});

/** A zip in memory from streams of the given sizes: zeros inflate a thousandfold. */
function zipOfZeros(entries: [string, number][], index: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(index), 'index.html');
  for (const [name, size] of entries) zip.addReadStream(zeros(size), name, { size });
  zip.end();
  return collect(zip.outputStream);
}

function zeros(size: number, fill = 0): Readable {
  const chunk = Buffer.alloc(1 << 20, fill);
  return Readable.from(
    (function* () {
      for (let left = size; left > 0; left -= chunk.length)
        yield left >= chunk.length ? chunk : chunk.subarray(0, left);
    })(),
  );
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** A PDF from its objects' bodies (object n is the n-th), with a correct cross-reference table. */
function pdfOf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(body), Buffer.from('\nendobj\n')]);
    offsets.push(at);
    parts.push(obj);
    at += obj.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ];
  parts.push(
    Buffer.from(`${xref.join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);
}

const font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const onePage = (count: number, resources: string) => [
  '<< /Type /Catalog /Pages 2 0 R >>',
  `<< /Type /Pages /Kids [3 0 R] /Count ${count} >>`,
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources ${resources} >>`,
];

/** Samples each service's memory, with the programs it runs, until stopped; returns the peaks in MB. */
function watchMemory(): () => Record<string, number> {
  const peak: Record<string, number> = {};
  const sample = () => {
    for (const [name, list] of Object.entries(stack.instances)) {
      for (const i of list) {
        const mb = rssMb(i.pid) + descendants(i.pid).reduce((sum, p) => sum + rssMb(p.pid), 0);
        peak[name] = Math.max(peak[name] ?? 0, mb);
      }
    }
  };
  const timer = setInterval(sample, 250);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
}

async function file(name: string, bytes: Buffer): Promise<string> {
  const path = join(stack.runDir, name);
  await writeFile(path, bytes);
  return path;
}

async function fetchResult(r: CallResult, name: string): Promise<string> {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const res = await fetch(`${stack.url}/uploads/${encodeURIComponent(r.body.download!)}`);
  return file(name, Buffer.from(await res.arrayBuffer()));
}

describe('bombs', () => {
  it('a zip that unpacks to 240 MB is refused as too large, before the browser sees it', async () => {
    const stop = watchMemory();
    const zip = await file(
      'bomb.zip',
      await zipOfZeros(
        [
          ['a.bin', 80 << 20],
          ['b.bin', 80 << 20],
          ['c.bin', 80 << 20],
        ],
        '<p>bomb</p>',
      ),
    );
    const r = await post(`${stack.url}/api/v1/tools/html-to-pdf`, [zip]);
    expect(contractCode(r, 'zip bomb')).toBe('file_too_large');
    expect(r.body.error!.message).toMatch(/unpacks to too much/);
    expect(stop().renderer).toBeLessThan(rssBoundMb);
  });

  it('PDFs that inflate a thousandfold, hold a 1.6-gigapixel image or claim four billion pages', async () => {
    const stop = watchMemory();
    const words = Buffer.from('BT /F1 24 Tf 72 700 Td (inflated) Tj ET\n');
    // The same page without the bomb: the PDF written here is one qpdf reads.
    const control = await file(
      'control.pdf',
      pdfOf([
        ...onePage(1, '<< /Font << /F1 5 0 R >> >>'),
        stream('/Filter /FlateDecode', await collect(Readable.from([words]).pipe(createDeflate()))),
        font,
      ]),
    );
    // The page's text, then 64 MB of spaces in the same stream.
    const spaces = await collect(
      Readable.from(
        (async function* () {
          yield words;
          for await (const chunk of zeros(64 << 20, 0x20)) yield chunk as Buffer;
        })(),
      ).pipe(createDeflate({ level: 9 })),
    );
    const bomb = await file(
      'stream-bomb.pdf',
      pdfOf([...onePage(1, '<< /Font << /F1 5 0 R >> >>'), stream('/Filter /FlateDecode', spaces), font]),
    );
    expect(spaces.length).toBeLessThan((64 << 20) / 500);
    const pixels = await file(
      'pixel-bomb.pdf',
      pdfOf([
        ...onePage(1, '<< /XObject << /Im1 5 0 R >> >>'),
        stream('', Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q')),
        stream(
          '/Type /XObject /Subtype /Image /Width 40000 /Height 40000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode',
          await collect(zeros(16 << 20).pipe(createDeflate({ level: 9 }))),
        ),
      ]),
    );
    const billions = await file(
      'four-billion-pages.pdf',
      pdfOf([...onePage(4294967295, '<< /Font << /F1 5 0 R >> >>'), stream('', words), font]),
    );
    expect(pageCount(control)).toBe(1);

    const tool = (id: string, path: string, fields: Record<string, string> = {}) =>
      post(`${stack.url}/api/v1/tools/${id}`, [path], fields);
    // The stream bomb reads as the page it is: its spaces are nothing to draw. Each service takes its own.
    const [asText, ...others] = await Promise.all(
      ['pdf-to-text', 'pdf-to-images', 'pdf-compress'].map((id) => tool(id, bomb)),
    );
    expect(await readFile(await fetchResult(asText!, 'bomb.txt'), 'utf8')).toMatch(/inflated/);
    for (const r of others) expect(r.status, JSON.stringify(r.body)).toBe(200);
    // The image is drawn scaled down to the page, or refused with the contract's error.
    for (const [id, r] of await Promise.all(
      ['pdf-to-images', 'pdf-to-html'].map(async (id) => [id, await tool(id, pixels)] as const),
    )) {
      if (r.status !== 200) expect(['damaged_input', 'file_too_large'], id).toContain(contractCode(r, id));
    }
    // Four billion pages claimed, one there: every tool works with the one.
    expect(contractCode(await tool('pdf-page-remove', billions, { pages: '1' }), 'remove')).toBe('invalid_option');
    const rotated = await fetchResult(await tool('rotate-pdf', billions), 'rotated.pdf');
    expect([0, 3]).toContain(qpdfCheck(rotated));
    // Its page tree holds one page, and now claims one.
    expect(
      execFileSync('qpdf', ['--show-pages', rotated])
        .toString()
        .match(/^page \d+:/gm),
    ).toHaveLength(1);
    expect(execFileSync('qpdf', ['--show-npages', rotated]).toString().trim()).toBe('1');
    const parts = await fetchResult(await tool('pdf-split', billions), 'split.zip');
    expect(execFileSync('unzip', ['-Z1', parts]).toString().trim().split('\n')).toHaveLength(1);
    expect(await readFile(await fetchResult(await tool('pdf-to-text', billions), 'billions.txt'), 'utf8')).toMatch(
      /inflated/,
    );

    const peak = stop();
    for (const [name, mb] of Object.entries(peak)) expect(mb, `${name} peak RSS`).toBeLessThan(rssBoundMb);
    for (const p of processes) expect(stillRunning(p), `${p.comm} ${p.pid}`).toBe(true);
  });
});

describe('the upload limit', () => {
  const over = () => Buffer.alloc(uploadLimitMb * 1024 * 1024 + 256 * 1024, 0x20);

  /** A multipart body of one file, sent with a length or chunked (no length: the limit is found while reading). */
  async function send(url: string, field: string, chunked: boolean): Promise<Response> {
    const form = new FormData();
    form.append(field, new Blob([over()], { type: 'application/pdf' }), 'big.pdf');
    if (!chunked) return fetch(url, { method: 'POST', body: form });
    const body = new Response(form);
    const stream = body.body!;
    return fetch(url, {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { 'content-type': body.headers.get('content-type')! },
    } as RequestInit);
  }

  it('holds at nginx, at the gateway and at every service, with or without a length', async () => {
    const targets: [string, string][] = [
      ['nginx', `${stack.url}/api/v1/tools/pdf-compress`],
      ['gateway', `${stack.gatewayUrl}/api/v1/tools/pdf-compress`],
      ...(Object.entries(stack.serviceUrls) as [ServiceName, string][]).map(([service, url]): [string, string] => {
        const tool = toolsOf(service).find((t) => 'kinds' in t.input)!;
        return [service, `${url}/tools/${tool.id}`];
      }),
    ];
    expect(targets.map(([name]) => name).sort()).toEqual(
      ['nginx', 'gateway', 'pdf-editor', 'office', 'renderer', 'image', 'pdf-extract'].sort(),
    );
    for (const [name, url] of targets) {
      for (const chunked of [false, true]) {
        const res = await send(url, 'file', chunked);
        const what = `${name}${chunked ? ' (chunked)' : ''}`;
        expect(res.status, what).toBe(413);
        expect(await res.json(), what).toEqual({
          error: { code: 'file_too_large', message: errorCodes.file_too_large.message },
        });
      }
    }
    // Gotenberg's route of the office service answers as Gotenberg does: in plain text.
    const gotenberg = await send(`${stack.serviceUrls.office}/forms/libreoffice/convert`, 'files', false);
    expect(gotenberg.status).toBe(413);
  });
});

describe('markup in a file name', () => {
  const name = '"><img src=x onerror=alert(1)>.pdf';

  it('is reduced to a safe name in the result and its download headers', async () => {
    const form = new FormData();
    form.append('file', new Blob([await readFile(fourPages)]), name);
    const res = await fetch(`${stack.url}/api/v1/tools/rotate-pdf`, { method: 'POST', body: form });
    const { download } = (await res.json()) as { download: string };
    expect(download).toMatch(/^[0-9a-f]{32}-[\p{L}\p{N}._-]+\.pdf$/u);
    const file = await fetch(`${stack.url}/uploads/${download}`);
    expect(file.status).toBe(200);
    const disposition = file.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; filename="[^"<>\r\n]+"; filename\*=UTF-8''[^"<>\s]+$/);
    await file.body?.cancel();
  });

  it('is shown as text on the tool page, and nothing of it runs', async () => {
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      const opened = await openPage(browser);
      await visit(opened.page, `${stack.url}/tools/rotate-pdf`);
      const widget = opened.page.locator('.widget');
      await widget.locator('input[type="file"]').setInputFiles({
        name,
        mimeType: 'application/pdf',
        buffer: await readFile(fourPages),
      });
      expect(await widget.locator('.file-list .file-name').allTextContents()).toEqual([name]);
      await widget.getByRole('button', { name: 'Convert', exact: true }).click();
      expect(await settledStatus(opened.page)).toBe('Success');
      expect(await opened.page.locator('img[src="x"]').count()).toBe(0);
      expect(opened.dialogs).toEqual([]);
      expect(opened.errors).toEqual([]);
      await opened.close();
    } finally {
      await browser?.close();
    }
  });
});

describe('security headers', () => {
  const headers = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };

  it('are on downloads and on error answers, from nginx and from the gateway alike', async () => {
    const r = await post(`${stack.url}/api/v1/tools/rotate-pdf`, [fourPages]);
    const answers = [
      await fetch(`${stack.url}/uploads/${encodeURIComponent(r.body.download!)}`),
      await fetch(`${stack.url}/uploads/${'0'.repeat(32)}-missing.pdf`),
      await fetch(`${stack.url}/api/v1/tools/no-such-tool`, { method: 'POST' }),
      await fetch(`${stack.url}/api/v1/tools/pdf-compress`, {
        method: 'POST',
        body: new Uint8Array(uploadLimitMb * 1024 * 1024 + 1024),
      }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 404, 413]);
    for (const a of answers) {
      for (const [header, value] of Object.entries(headers))
        expect(a.headers.get(header), `${a.url} ${header}`).toBe(value);
      expect(a.headers.get('content-security-policy'), a.url).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
      await a.body?.cancel();
    }
    expect(answers[0]!.headers.get('content-disposition')).toMatch(/^attachment;/);
  });
});

describe('tokens', () => {
  it('a forged or malformed bearer token is 401 invalid_token through nginx, on any call', async () => {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: 'https://securetoken.google.com/demo-quire',
      aud: 'demo-quire',
      sub: 'u',
      iat: now,
      exp: now + 3600,
    };
    const tokens = [
      'garbage',
      'a.b.c',
      `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`,
      `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.${Buffer.from('forged').toString('base64url')}`,
    ];
    for (const token of tokens) {
      const auth = { Authorization: `Bearer ${token}` };
      const answers = [
        await post(`${stack.url}/api/v1/tools/rotate-pdf`, [fourPages], {}, auth),
        await fetch(`${stack.url}/api/v1/me/history`, { headers: auth }).then(async (res) => ({
          status: res.status,
          headers: res.headers,
          body: (await res.json()) as CallResult['body'],
        })),
      ];
      for (const a of answers) expect(contractCode(a, token.slice(0, 20))).toBe('invalid_token');
    }
  });
});
