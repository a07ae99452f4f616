import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  call,
  corpusHtml,
  info,
  lieAboutSizes,
  makeZip,
  pageCount,
  startRenderer,
  type TestRenderer,
  text,
  words,
} from '../../../test/helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let service: TestRenderer;
let app: Express;

beforeAll(async () => {
  service = await startRenderer('html', { zipMaxBytes: 20 * 1024 * 1024, zipMaxEntries: 200 });
  app = service.app;
});

afterAll(() => service.stop());

const corpus = (name: string) => join(corpusHtml, name);
const flat = (s: string) => s.replace(/\s+/g, ' ');

/** Text each corpus page must keep through printing. */
const phrases: Record<string, (string | RegExp)[]> = {
  'gotenberg-feature-rich.html': ["Emulated media type is 'print'.", 'JavaScript is enabled.'],
  'gotenberg-pages-12.html': ['Page 1', 'Page 12'],
  'gotenberg-wide-table.html': ['Column 1', 'Column 2'],
  'jod-test.html': ['Test document'],
  'pypdf-habibi.html': ['habibi', /[\u0600-\u06FF]/],
  'readability-data-url-image.html': ['Lorem ipsum dolor sit amet consectetur adipisicing elit'],
  'readability-rtl-1.html': ['Lorem ipsum dolor sit amet'],
  'readability-table-style-attributes.html': ['Jamie Zawinski', 'linux usability'],
  'readability-wikipedia.html': ['From Wikipedia, the free encyclopedia', 'Mozilla'],
  'readability-yahoo-3.html': ['Vanessa Hicks said she had no idea her photo would be considered controversial'],
  'textract-tables.html': ['List of countries by population'],
};

describe('html-to-pdf on every page of the corpus', () => {
  const files = readdirSync(corpusHtml).filter((f) => f.endsWith('.html'));

  it('covers the whole corpus folder', () => {
    expect(files.sort()).toEqual(Object.keys(phrases).sort());
  });

  for (const file of files) {
    it(`${file}: converts and keeps its text`, async () => {
      const r = await call(app, 'html-to-pdf', { file: corpus(file) });
      expect(r.error, JSON.stringify(r.error)).toBeUndefined();
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/pdf');
      expect(decodeURIComponent(r.headers['x-quire-output-name']!)).toBe(file.replace(/\.html$/, '.pdf'));
      const pages = pageCount(r.pdf!);
      expect(pages).toBeGreaterThanOrEqual(1);
      expect(r.properties.pages).toBe(pages);
      const got = flat(text(r.pdf!));
      for (const phrase of phrases[file] ?? []) {
        if (typeof phrase === 'string') expect(got).toContain(phrase);
        else expect(got).toMatch(phrase);
      }
      // The corpus probes local files (`<iframe src="/etc/passwd">`): nothing of them may be printed.
      expect(got).not.toMatch(/root:x?:0:0|daemon:|\/bin\/(ba)?sh/);
    });
  }

  it('gotenberg-pages-12.html gives 12 pages, one heading each', async () => {
    const r = await call(app, 'html-to-pdf', { file: corpus('gotenberg-pages-12.html') });
    expect(pageCount(r.pdf!)).toBe(12);
    for (const n of [1, 5, 12]) expect(text(r.pdf!, { first: n, last: n }).trim()).toBe(`Page ${n}`);
  });

  it('respects print CSS and runs scripts (gotenberg-feature-rich.html)', async () => {
    const r = await call(app, 'html-to-pdf', { file: corpus('gotenberg-feature-rich.html') });
    const got = flat(text(r.pdf!));
    expect(got).toContain("Emulated media type is 'print'.");
    expect(got).not.toContain("Emulated media type is 'screen'.");
    expect(got).toContain('JavaScript is enabled.');
    expect(got).not.toMatch(/root:|passwd/);
  });

  it('keeps most words of textract-tables.html (against its expected text)', async () => {
    const r = await call(app, 'html-to-pdf', { file: corpus('textract-tables.html') });
    const norm = (s: string) =>
      words(
        s
          .normalize('NFKC')
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, ' '),
      ).filter((w) => w.length > 1);
    const expected = norm(readFileSync(corpus('textract-tables.expected.txt'), 'utf8'));
    const got = new Map<string, number>();
    for (const w of norm(text(r.pdf!))) got.set(w, (got.get(w) ?? 0) + 1);
    let found = 0;
    for (const w of expected) {
      const n = got.get(w) ?? 0;
      if (n > 0) {
        found++;
        got.set(w, n - 1);
      }
    }
    expect(expected.length).toBeGreaterThan(4000);
    // About 0.89 here: the rest is the text of navigation boxes the page's CSS keeps collapsed, which
    // textract's plain extraction includes and a browser does not print.
    expect(found / expected.length, `${found} of ${expected.length} words`).toBeGreaterThan(0.85);
  });
});

describe('html-to-pdf options', () => {
  /** The first page's width and height in points, rounded. */
  const size = (path: string) => {
    const m = /^([\d.]+) x ([\d.]+) pts/.exec(info(path)['Page size'] ?? '');
    return [Math.round(Number(m?.[1])), Math.round(Number(m?.[2]))];
  };

  it('prints A4 portrait by default, Letter and landscape on request', async () => {
    const a4 = await call(app, 'html-to-pdf', { file: corpus('jod-test.html') });
    expect(size(a4.pdf!)).toEqual([596, 843]); // Chromium's A4: 8.27 x 11.7 in
    const letter = await call(app, 'html-to-pdf', { file: corpus('jod-test.html'), fields: { pageSize: 'letter' } });
    expect(size(letter.pdf!)).toEqual([612, 792]);
    const wide = await call(app, 'html-to-pdf', { file: corpus('jod-test.html'), fields: { landscape: 'true' } });
    expect(size(wide.pdf!)).toEqual([843, 596]);
  });

  it('refuses a bad option value, naming the field', async () => {
    const r = await call(app, 'html-to-pdf', { file: corpus('jod-test.html'), fields: { pageSize: 'a3' } });
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('invalid_option');
    expect(r.error?.message).toContain('pageSize');
  });

  it('refuses what is not HTML', async () => {
    const r = await call(app, 'html-to-pdf', { file: join(corpusHtml, 'gotenberg-html-with-asset/image.png') });
    expect(r.status).toBe(415);
    expect(r.error?.code).toBe('unsupported_type');
  });
});

describe('html-to-pdf from a zip of a page and its assets', () => {
  it('loads the assets the page refers to (gotenberg-html-with-asset)', async () => {
    const dir = join(corpusHtml, 'gotenberg-html-with-asset');
    const zip = makeZip([
      { name: 'index.html', file: join(dir, 'index.html') },
      { name: 'image.png', file: join(dir, 'image.png') },
    ]);
    const r = await call(app, 'html-to-pdf', { file: zip });
    expect(r.error).toBeUndefined();
    expect(decodeURIComponent(r.headers['x-quire-output-name']!)).toBe('site.pdf');
    expect(flat(text(r.pdf!))).toContain('Asset test');
    // The image was served from the zip: the PDF holds it.
    const images = execFileSync('pdfimages', ['-list', r.pdf!]).toString().trim().split('\n').slice(2);
    expect(images.length).toBeGreaterThanOrEqual(1);
  });

  it('serves CSS, fonts of folders and nested paths from the zip', async () => {
    const zip = makeZip([
      {
        name: 'index.html',
        data: '<!doctype html><link rel="stylesheet" href="css/site.css"><p class="x">Styled from a folder</p><script src="./js/app.js"></script>',
      },
      { name: 'css/site.css', data: '.x { color: rgb(1, 2, 3) } .x::after { content: " and CSS content" }' },
      { name: 'js/app.js', data: 'document.body.insertAdjacentHTML("beforeend", "<p>Script from the zip ran</p>")' },
    ]);
    const r = await call(app, 'html-to-pdf', { file: zip });
    const got = flat(text(r.pdf!));
    expect(got).toContain('Styled from a folder and CSS content');
    expect(got).toContain('Script from the zip ran');
  });

  it('uses header.html and footer.html as page header and footer (gotenberg-header-footer)', async () => {
    const dir = join(corpusHtml, 'gotenberg-header-footer');
    const zip = makeZip([
      { name: 'index.html', data: readFileSync(corpus('gotenberg-pages-12.html'), 'utf8') },
      { name: 'header.html', data: readFileSync(join(dir, 'header.html'), 'utf8') },
      { name: 'footer.html', data: readFileSync(join(dir, 'footer.html'), 'utf8') },
    ]);
    const r = await call(app, 'html-to-pdf', { file: zip });
    expect(r.error).toBeUndefined();
    expect(pageCount(r.pdf!)).toBe(12);
    for (const n of [1, 7, 12]) {
      const page = flat(text(r.pdf!, { first: n, last: n }));
      expect(page).toContain(`Page ${n}`);
      expect(page).toContain(`${n} of 12`); // the footer's page numbers
      expect(page).toContain('Pages 12'); // the header's document title
    }
  });

  it('refuses zip-slip names (`..`, absolute) without writing anything', async () => {
    for (const name of ['../evil.html', '../../tmp/evil.html', '/etc/evil.html', 'a/../../evil.html']) {
      const zip = makeZip([
        { name: 'index.html', data: '<p>hi</p>' },
        { name, data: 'evil' },
      ]);
      const r = await call(app, 'html-to-pdf', { file: zip });
      expect([415, 422], name).toContain(r.status);
      expect(['unsupported_type', 'damaged_input']).toContain(r.error?.code);
      expect(r.error?.message).not.toMatch(/\/tmp|\/etc|evil/);
    }
  });

  it('refuses symbolic links', async () => {
    const zip = makeZip([
      { name: 'index.html', data: '<link rel="stylesheet" href="passwd.css"><p>hi</p>' },
      { name: 'passwd.css', link: '/etc/passwd' },
    ]);
    const r = await call(app, 'html-to-pdf', { file: zip });
    expect(r.status).toBe(422);
    expect(r.error?.code).toBe('damaged_input');
    expect(r.error?.message).toMatch(/unsafe name or a link/);
  });

  it('refuses a zip bomb by its declared size (413)', async () => {
    const zip = makeZip([
      { name: 'index.html', data: '<p>hi</p>' },
      { name: 'big.bin', zeros: 64 * 1024 * 1024 },
    ]);
    expect(readFileSync(zip).length).toBeLessThan(1024 * 1024);
    const r = await call(app, 'html-to-pdf', { file: zip });
    expect(r.status).toBe(413);
    expect(r.error?.code).toBe('file_too_large');
    expect(r.error?.message).toMatch(/unpacks to too much/);
  });

  it('refuses a zip bomb that lies about its sizes, while inflating', async () => {
    const zip = lieAboutSizes(
      makeZip([
        { name: 'index.html', data: '<p>hi</p>' },
        { name: 'big.bin', zeros: 64 * 1024 * 1024 },
      ]),
      1000,
    );
    const r = await call(app, 'html-to-pdf', { file: zip });
    expect([413, 422]).toContain(r.status);
    expect(['file_too_large', 'damaged_input']).toContain(r.error?.code);
  });

  it('refuses a zip of too many entries (413)', async () => {
    const entries = [
      { name: 'index.html', data: '<p>hi</p>' },
      ...Array.from({ length: 300 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' })),
    ];
    const r = await call(app, 'html-to-pdf', { file: makeZip(entries) });
    expect(r.status).toBe(413);
    expect(r.error?.code).toBe('file_too_large');
  });

  it('answers unsupported_type for a zip without index.html', async () => {
    const r = await call(app, 'html-to-pdf', { file: makeZip([{ name: 'page.html', data: '<p>hi</p>' }]) });
    expect(r.status).toBe(415);
  });
});
