import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  corpus,
  elementText,
  encryptedCorpus,
  mapLimit,
  officeParts,
  resultText,
  sourceWords,
  wordsFound,
  type Answer,
} from './helpers.ts';

const workRoot = mkdtempSync(join(tmpdir(), 'pdf-extract-work-'));
process.env.WORK_DIR = workRoot;
process.env.LOG_LEVEL ??= 'error';

const pdf = (name: string) => join(corpus, 'pdf', name);
const big = pdf('pypdf-geotopo-117-pages.pdf');

let app: Express;
beforeAll(async () => {
  app = (await import('../src/app.ts')).createApp();
  // pdf.js is large; load it once before the clocks of the tests start.
  await (await import('../src/pdfjs.ts')).loadPdfjs();
}, 120_000);

afterAll(async () => {
  for (let i = 0; i < 50 && readdirSync(workRoot).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  const left = readdirSync(workRoot);
  rmSync(workRoot, { recursive: true, force: true });
  expect(left).toEqual([]);
});

const tools = [
  { tool: 'pdf-to-text', kind: 'md', fields: { format: 'md' } },
  { tool: 'pdf-to-word', kind: 'docx', fields: {} },
  { tool: 'pdf-to-excel', kind: 'xlsx', fields: {} },
  { tool: 'pdf-to-ppt', kind: 'pptx', fields: {} },
  { tool: 'pdf-to-html', kind: 'html', fields: {} },
] as const;

function checkOutput(a: Answer, kind: string, words: string[], label: string, floor = 0.9): string {
  expect(a.status, `${label}: ${JSON.stringify(a.error)}`).toBe(200);
  expect(a.headers['x-quire-output-kind'], label).toBe(kind);
  const text = resultText(a.file!, kind);
  const found = wordsFound(words, text);
  expect(found.share, `${label} misses ${found.missing.slice(0, 10).join(', ')}`).toBeGreaterThanOrEqual(floor);
  return text;
}

describe('every corpus PDF through every extract tool', () => {
  const files = readdirSync(join(corpus, 'pdf'))
    .filter((f) => f.endsWith('.pdf'))
    .map(pdf)
    .filter((f) => f !== big);

  it('answers 200 with an output that opens and holds the source text', async () => {
    const failures: string[] = [];
    await mapLimit(files, 2, async (file) => {
      const words = sourceWords(file, '');
      for (const t of tools) {
        const label = `${t.tool} ${basename(file)}`;
        try {
          const a = await call(app, t.tool, file, t.fields);
          // Excel keeps only the tables when there are some, else every line of text.
          checkOutput(a, t.kind, words, label, t.kind === 'xlsx' && Number(a.properties.tables) > 0 ? 0 : 0.9);
          expect(a.properties.pages, label).toBeGreaterThan(0);
        } catch (err) {
          failures.push(`${label}: ${(err as Error).message.split('\n')[0]}`);
        }
      }
    });
    expect(failures).toEqual([]);
  }, 900_000);

  it('reads the 117-page PDF once, in bounded time and memory', async () => {
    const before = process.memoryUsage().rss;
    const start = Date.now();
    const a = await call(app, 'pdf-to-word', big);
    const seconds = (Date.now() - start) / 1000;
    checkOutput(a, 'docx', sourceWords(big), 'pdf-to-word big');
    expect(a.properties.pages).toBe(117);
    const doc = officeParts(a.file!)['word/document.xml']!;
    // A page break where every page began (or a new section).
    expect(
      (doc.match(/<w:pageBreakBefore\/>|<w:pageBreakBefore w:val="true"\/>/g) ?? []).length,
    ).toBeGreaterThanOrEqual(100);
    expect(seconds).toBeLessThan(110);
    expect((process.memoryUsage().rss - before) / 1024 / 1024).toBeLessThan(800);
  }, 300_000);
});

describe('encrypted PDFs', () => {
  const files = encryptedCorpus();

  it('open with their password, and say which password is missing or wrong', async () => {
    const failures: string[] = [];
    await mapLimit(files, 2, async (f) => {
      const label = basename(f.file);
      try {
        if (f.userPassword === undefined) return;
        const fields: Record<string, string> = f.userPassword ? { password: f.userPassword } : {};
        const a = await call(app, 'pdf-to-text', f.path, fields);
        checkOutput(a, 'txt', sourceWords(f.path, f.userPassword), label);
        const w = await call(app, 'pdf-to-word', f.path, fields);
        expect(w.status, label).toBe(200);
        if (f.userPassword) {
          const none = await call(app, 'pdf-to-html', f.path);
          expect(none.error?.code, label).toBe('password_required');
          const wrong = await call(app, 'pdf-to-excel', f.path, { password: 'not-the-password' });
          expect(wrong.error?.code, label).toBe('wrong_password');
        }
      } catch (err) {
        failures.push(`${label}: ${(err as Error).message.split('\n')[0]}`);
      }
    });
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('damaged and foreign files', () => {
  it('never answer 5xx', async () => {
    const dir = join(corpus, 'pdf-broken');
    const files = readdirSync(dir).map((f) => join(dir, f));
    const bad: string[] = [];
    await mapLimit(files, 2, async (file) => {
      for (const tool of ['pdf-to-text', 'pdf-to-word']) {
        const a = await call(app, tool, file);
        if (a.status >= 500) bad.push(`${tool} ${basename(file)}: ${a.status} ${JSON.stringify(a.error)}`);
        if (a.status !== 200)
          expect(a.error?.code, basename(file)).toMatch(/^(unsupported_type|damaged_input|password_required)$/);
      }
    });
    expect(bad).toEqual([]);
  }, 600_000);
});

describe('layout', () => {
  it('reads two columns column by column, not line by line', async () => {
    const a = await call(app, 'pdf-to-text', pdf('pypdf-multicolumn.pdf'));
    const text = readFileSync(a.file!, 'utf8').replace(/\s+/g, ' ');
    // The left column's first paragraph comes whole before the right column starts.
    const left = text.indexOf('Lorem ipsum dolor sit amet, consectetuer adip');
    const leftLater = text.indexOf('Nulla malesuada porttitor diam');
    const right = text.indexOf('pellentesque ante. Phasellus adipiscing semper elit');
    expect(left).toBeGreaterThan(-1);
    expect(right).toBeGreaterThan(leftLater);
    expect(leftLater).toBeGreaterThan(left);
  });

  it('gives Markdown headings, paragraphs and lists', async () => {
    const a = await call(app, 'pdf-to-text', pdf('pypdf-multicolumn.pdf'), { format: 'md' });
    expect(a.headers['content-type']).toMatch(/^text\/markdown/);
    const md = readFileSync(a.file!, 'utf8');
    expect(md).toMatch(/^# Two-Column Document with Lorem Ipsum$/m);
    expect(md).toMatch(/^#{1,3} \**Abstract/m);
    const outline = await call(app, 'pdf-to-text', pdf('pypdf-pdflatex-outline.pdf'), { format: 'md' });
    expect(readFileSync(outline.file!, 'utf8')).toMatch(/^#{1,3} /m);
  });

  it('writes Word paragraphs that flow, with heading styles, runs and no text boxes', async () => {
    const a = await call(app, 'pdf-to-word', pdf('pypdf-multicolumn.pdf'));
    const parts = officeParts(a.file!);
    const doc = parts['word/document.xml']!;
    expect(doc).not.toMatch(/<w:txbxContent|<w:framePr|<v:textbox|<wps:txbx/);
    expect(doc).toMatch(/<w:pStyle w:val="Heading1"\/>/);
    expect(doc).toMatch(/<w:b\/>/);
    const paragraphs = [...doc.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((m) => elementText(m[0], 'w:t').join(''));
    const long = paragraphs.filter((p) => p.length > 300);
    // Paragraphs, not lines: many long ones.
    expect(long.length).toBeGreaterThanOrEqual(5);
  });

  it('finds ruled tables with merged cells, and stores numbers as numbers', async () => {
    const a = await call(app, 'pdf-to-excel', join(corpus, 'tables/camelot/column_span_2.pdf'));
    const parts = officeParts(a.file!);
    const workbook = parts['xl/workbook.xml']!;
    expect(workbook).toMatch(/name="Page 1 table 1"/);
    const sheet = parts['xl/worksheets/sheet1.xml']!;
    expect(sheet).toMatch(/<mergeCell /);
    // Numeric cells carry no t="s": they are numbers.
    expect(sheet).toMatch(/<c r="[A-Z]+\d+"( s="\d+")?><v>\d/);
  });

  it('puts tables into Word as real tables and HTML as <table>', async () => {
    const file = join(corpus, 'tables/camelot/twotables_2.pdf');
    const w = await call(app, 'pdf-to-word', file);
    const doc = officeParts(w.file!)['word/document.xml']!;
    expect((doc.match(/<w:tbl>/g) ?? []).length).toBe(2);
    const h = await call(app, 'pdf-to-html', file);
    const html = readFileSync(h.file!, 'utf8');
    expect((html.match(/<table>/g) ?? []).length).toBe(2);
  });

  it('makes self-contained, escaped HTML with images inlined', async () => {
    const a = await call(app, 'pdf-to-html', pdf('pypdf-pdflatex-image.pdf'));
    const html = readFileSync(a.file!, 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toMatch(/<img src="data:image\/png;base64,/);
    expect(html).not.toMatch(/src="(?!data:)/);
    expect(html).not.toMatch(/<script/i);
  });

  it('places images in Word documents', async () => {
    const a = await call(app, 'pdf-to-word', pdf('pypdf-pdflatex-image.pdf'));
    const parts = officeParts(a.file!);
    expect(parts['word/document.xml']).toMatch(/<pic:pic/);
  });

  it('makes one slide per page at the page aspect ratio, text editable on a text-free background', async () => {
    const a = await call(app, 'pdf-to-ppt', pdf('pypdf-pdflatex-4-pages.pdf'));
    const parts = officeParts(a.file!);
    const slides = Object.keys(parts).filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n));
    expect(slides).toHaveLength(4);
    const size = /<p:sldSz cx="(\d+)" cy="(\d+)"/.exec(parts['ppt/presentation.xml']!)!;
    const info = execFileSync('pdfinfo', [pdf('pypdf-pdflatex-4-pages.pdf')]).toString();
    const [, w, h] = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(info)!;
    expect(Number(size[1]) / Number(size[2])).toBeCloseTo(Number(w) / Number(h), 2);
    expect(parts['ppt/slides/slide1.xml']).toMatch(/<p:sp>[\s\S]*<a:t>/);
    expect(a.properties.backgrounds).toBe(4);
  });

  it('says which pages are scans without text', async () => {
    const a = await call(app, 'pdf-to-word', pdf('pypdf-imagemagick-images.pdf'));
    expect(a.status).toBe(200);
    expect(a.properties.scannedPages).toEqual([1, 2, 3, 4, 5, 6]);
    const t = await call(app, 'pdf-to-text', pdf('camelot-image-scanned-table.pdf'));
    expect(t.properties.scannedPages).toEqual([1]);
  });

  it('keeps an unknown option value out', async () => {
    const a = await call(app, 'pdf-to-text', pdf('qpdf-11-pages.pdf'), { format: 'rtf' });
    expect(a.status).toBe(400);
    expect(a.error?.code).toBe('invalid_option');
  });

  const soffice = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((p) => existsSync(p));
  it.skipIf(!soffice)(
    'writes files LibreOffice opens and converts back to PDF',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pdf-extract-lo-'));
      try {
        const source = pdf('pypdf-pdflatex-4-pages.pdf');
        for (const t of tools.filter((x) => x.kind !== 'md' && x.kind !== 'html')) {
          const a = await call(app, t.tool, source, t.fields);
          const r = spawnSync(
            soffice!,
            [
              `-env:UserInstallation=file://${dir}/profile`,
              '--headless',
              '--convert-to',
              'pdf',
              '--outdir',
              dir,
              a.file!,
            ],
            { timeout: 120_000, stdio: 'ignore' },
          );
          expect(r.status, t.tool).toBe(0);
          const back = join(dir, basename(a.file!).replace(/\.[^.]+$/, '.pdf'));
          expect(existsSync(back), t.tool).toBe(true);
          const text = execFileSync('pdftotext', [back, '-']).toString();
          expect(wordsFound(sourceWords(source), text).share, t.tool).toBeGreaterThan(t.kind === 'xlsx' ? 0.3 : 0.9);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    600_000,
  );
});
