import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  call,
  corpusHtml,
  makeZip,
  pageCount,
  startRenderer,
  startTrap,
  type TestRenderer,
  type Trap,
  text,
} from '../../../test/helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let service: TestRenderer;
let app: Express;
let trap: Trap;
const inputs = mkdtempSync(join(tmpdir(), 'markdown-inputs-'));

beforeAll(async () => {
  service = await startRenderer('markdown', { zipMaxBytes: 20 * 1024 * 1024, zipMaxEntries: 200 });
  app = service.app;
  trap = await startTrap();
});

afterAll(async () => {
  await service.stop(trap);
  rmSync(inputs, { recursive: true, force: true });
});

const flat = (s: string) => s.replace(/\s+/g, ' ');
const file = (name: string, data: string | Buffer) => {
  const path = join(inputs, name);
  writeFileSync(path, data);
  return path;
};

const sample = `# Quarterly report

Some *emphasis*, **strong** text and a [link](https://example.com).

## Items

- First bullet
- Second bullet
  1. Nested one

| Region | Sales |
| ------ | ----: |
| North  | 1,200 |
| South  |   950 |

\`\`\`ts
const answer = 6 * 7; // ${'a very long comment that must wrap rather than run off the page '.repeat(3)}
\`\`\`

Escaped: 5 < 6 & "quotes", and \`<b>not bold</b>\` in code.
`;

describe('markdown-to-pdf', () => {
  it('keeps headings, lists, tables and code, with code in monospace that wraps', async () => {
    const r = await call(app, 'markdown-to-pdf', { file: file('report.md', sample) });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    expect(decodeURIComponent(r.headers['x-quire-output-name']!)).toBe('report.pdf');
    expect(pageCount(r.pdf!)).toBe(1);
    const got = flat(text(r.pdf!));
    for (const phrase of [
      'Quarterly report',
      'Items',
      'First bullet',
      'Nested one',
      'Region Sales',
      'North 1,200',
      'South 950',
      'const answer = 6 * 7;',
      'Escaped: 5 < 6 & "quotes", and <b>not bold</b> in code.',
    ])
      expect(got).toContain(phrase);
    // Markdown syntax does not print as such.
    expect(got).not.toMatch(/# Quarterly|\| Region|```|\*\*strong/);
    const fonts = execFileSync('pdffonts', [r.pdf!]).toString();
    expect(fonts).toMatch(/Mono/);
    // The long comment wrapped onto several lines, every word of it on the page.
    expect(got.match(/run off the page/g)).toHaveLength(3);
    expect(
      text(r.pdf!)
        .split('\n')
        .filter((line) => /must wrap|run off/.test(line)).length,
    ).toBeGreaterThan(1);
  });

  it('prints the images of a zip, resolved beside the Markdown file', async () => {
    const png = join(corpusHtml, 'gotenberg-html-with-asset/image.png');
    const zip = makeZip([
      { name: 'docs/guide.md', data: '# With a picture\n\n![logo](img/image.png)\n' },
      { name: 'docs/img/image.png', file: png },
    ]);
    const r = await call(app, 'markdown-to-pdf', { file: zip });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    expect(flat(text(r.pdf!))).toContain('With a picture');
    const images = execFileSync('pdfimages', ['-list', r.pdf!]).toString().trim().split('\n').slice(2);
    expect(images).toHaveLength(1);
  });

  it('lets raw HTML load nothing from the network and run no script', async () => {
    const origin = `http://127.0.0.1:${trap.port}`;
    const md = [
      '# Raw HTML',
      `<img src="${origin}/img.png">`,
      `<link rel="stylesheet" href="${origin}/style.css">`,
      `<iframe src="${origin}/frame"></iframe>`,
      `<div style="background: url(${origin}/bg.png)">styled</div>`,
      `<script>document.body.insertAdjacentHTML('beforeend', '<p>script ran</p>'); fetch('${origin}/fetch')</script>`,
      '<p>kept paragraph</p>',
      '<iframe src="/etc/passwd"></iframe>',
    ].join('\n\n');
    const r = await call(app, 'markdown-to-pdf', { file: file('raw.md', md) });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    const got = flat(text(r.pdf!));
    expect(got).toContain('kept paragraph');
    expect(got).not.toContain('script ran');
    expect(got).not.toMatch(/root:|daemon:/);
    expect(trap.hits).toEqual([]);
  });

  it('prints Letter landscape on request', async () => {
    const r = await call(app, 'markdown-to-pdf', {
      file: file('wide.md', '# Wide'),
      fields: { pageSize: 'letter', landscape: 'true' },
    });
    expect(execFileSync('pdfinfo', [r.pdf!]).toString()).toMatch(/Page size:\s+792 x 612/);
  });

  it('refuses a binary file, a zip without exactly one Markdown file, and a bad option', async () => {
    const png = await call(app, 'markdown-to-pdf', { file: join(corpusHtml, 'gotenberg-html-with-asset/image.png') });
    expect(png.status).toBe(415);
    expect(png.error?.code).toBe('unsupported_type');
    const binary = await call(app, 'markdown-to-pdf', {
      file: file('fake.md', Buffer.from([0x23, 0x20, 0, 1, 2, 0xff])),
    });
    expect(binary.status).toBe(415);
    // Text at its start, binary later: refused by the tool, which reads it whole.
    const late = await call(app, 'markdown-to-pdf', {
      file: file('late.md', Buffer.concat([Buffer.from('# Title\n'.repeat(10_000)), Buffer.from([0, 0xff, 0xfe])])),
    });
    expect(late.status).toBe(415);
    expect(late.error?.message).toMatch(/not text/);
    const two = await call(app, 'markdown-to-pdf', {
      file: makeZip([
        { name: 'a.md', data: '# A' },
        { name: 'b.md', data: '# B' },
      ]),
    });
    expect(two.status).toBe(415);
    // Judged by its entries at the gate, such a zip is not a kind this tool takes.
    expect(two.error?.message).toMatch(/ZIP with a Markdown file/);
    const bad = await call(app, 'markdown-to-pdf', { file: file('ok.md', '# ok'), fields: { pageSize: 'a0' } });
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toContain('pageSize');
  });
});
