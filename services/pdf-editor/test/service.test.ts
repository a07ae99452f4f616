import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpus, pdf, scratch, useEditor, pages, check, text, unzip, pool } from './helpers.ts';
import request from 'supertest';

const { call, app } = useEditor();

describe('health', () => {
  it('reports qpdf and Ghostscript', async () => {
    const res = await request(app()).get('/health');
    expect(res.status).toBe(200);
    expect(res.body.engines.qpdf).toMatch(/qpdf version/);
    expect(res.body.engines.ghostscript).toMatch(/^\d+\.\d+/);
  });
});

describe('damaged and mislabelled inputs', () => {
  const broken = readdirSync(join(corpus, 'pdf-broken')).map((f) => join(corpus, 'pdf-broken', f));
  const runs: [string, string[], Record<string, string>][] = [
    ['pdf-split', [], {}],
    ['rotate-pdf', [], {}],
    ['pdf-page-remove', [], { pages: '1' }],
    ['add-watermark', [], {}],
    ['pdf-unlock', [], {}],
    ['pdf-compress', [], {}],
    ['pdf-metadata-cleaner', [], {}],
    ['pdf-merge', [pdf('pdfminer-simple1.pdf')], {}],
  ];

  it.each(runs)('%s gives a good result or a 4xx contract error, never a 5xx', async (tool, extra, fields) => {
    await pool(broken, 4, async (file) => {
      const r = await call(tool, [file, ...extra], fields);
      const what = `${tool} ${basename(file)}: ${JSON.stringify(r.error)}`;
      expect([200, 415, 422, 400], what).toContain(r.status);
      if (r.error?.code === 'empty_file') return void expect(basename(file)).toBe('pdfplumber-zero-byte.pdf');
      if (r.status === 400) {
        // Only a page that is not there: a repaired one-page file has nothing left to remove.
        expect(r.error?.code, what).toBe('invalid_option');
        expect(tool, what).toBe('pdf-page-remove');
      }
      if (r.status === 415) expect(r.error?.code, what).toBe('unsupported_type');
      if (r.status === 422) expect(r.error?.code, what).toBe('damaged_input');
      if (r.status !== 200) return;
      const outputs = tool === 'pdf-split' ? (await unzip(r.file)).map((e) => e.path) : [r.file];
      expect(outputs.length, what).toBeGreaterThan(0);
      for (const out of outputs) {
        expect([0, 3], what).toContain(check(out));
        expect(pages(out), what).toBeGreaterThan(0);
      }
    });
  });
});

describe('a catalog pdf-lib cannot take for one', () => {
  it.each(['add-watermark', 'pdf-metadata-cleaner'])('%s answers damaged_input, not a 500', async (tool) => {
    // qpdf keeps a catalog whose /Type is mangled; pdf-lib loads it and fails only when asked for pages.
    const qdf = execFileSync('qpdf', ['--qdf', '--object-streams=disable', pdf('pypdf-minimal-document.pdf'), '-']);
    const mangled = join(scratch, 'mangled-catalog.pdf');
    writeFileSync(mangled, Buffer.from(qdf.toString('latin1').replace('/Type /Catalog', '/Type /Catalgg'), 'latin1'));
    const r = await call(tool, [mangled]);
    expect(r.status).toBe(422);
    expect(r.error?.code).toBe('damaged_input');
  });
});

describe('a page tree that claims four billion pages and holds four', () => {
  // The corpus file as qpdf's QDF, its /Count raised and its offsets fixed again by fix-qdf.
  const liar = join(scratch, 'liar.pdf');
  beforeAll(() => {
    const qdf = execFileSync('qpdf', ['--qdf', '--object-streams=disable', pdf('pypdf-pdflatex-4-pages.pdf'), '-']);
    const raised = Buffer.from(qdf.toString('latin1').replace('/Count 4', '/Count 4294967295'), 'latin1');
    writeFileSync(liar, execFileSync('fix-qdf', { input: raised }));
    expect(pages(liar)).toBe(4294967295);
  });

  it.each([
    ['rotate-pdf', {}],
    ['rotate-pdf', { pages: '2-3' }],
    ['pdf-unlock', {}],
    ['pdf-metadata-cleaner', {}],
    ['pdf-compress', {}],
  ] as const)('%s %j returns a file that claims the four it holds', async (tool, fields) => {
    const r = await call(tool, [liar], fields);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect([0, 3]).toContain(check(r.file));
    expect(pages(r.file)).toBe(4);
    expect(r.props.pages).toBe(4);
    expect(text(r.file, 4)).toBe(text(pdf('pypdf-pdflatex-4-pages.pdf'), 4));
  });
});

describe('requests the contract refuses', () => {
  it('refuses a tool of another service', async () => {
    const r = await call('pdf-to-word', [pdf('qpdf-11-pages.pdf')]);
    expect(r.status).toBe(404);
    expect(r.error?.code).toBe('unknown_tool');
  });

  it('refuses a file that is not a PDF', async () => {
    const r = await call('rotate-pdf', [join(corpus, 'pdf-broken/renamed-png-as.pdf')]);
    expect(r.error?.code).toBe('unsupported_type');
  });
});
