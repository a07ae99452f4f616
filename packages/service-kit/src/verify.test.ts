import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findTool } from '@quire/catalog';
import { missingItems, pageIsBlank, samplePageNumbers, verifyResult, VerificationError } from './verify.ts';

const corpus = new URL('../../../../shared/corpus/', import.meta.url).pathname;
const four = join(corpus, 'pdf/pypdf-pdflatex-4-pages.pdf');

function job() {
  return {
    workdir: mkdtempSync(join(tmpdir(), 'verify-')),
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
  };
}

/** Files that break one promise each, made with the real engines. */
function broken(dir: string) {
  const twoPages = join(dir, 'two.pdf');
  execFileSync('qpdf', [four, '--pages', '.', '1-2', '--', twoPages]);
  const noText = join(dir, 'notext.pdf');
  execFileSync('gs', [
    '-q',
    '-dSAFER',
    '-dBATCH',
    '-dNOPAUSE',
    '-sDEVICE=pdfwrite',
    '-dFILTERTEXT',
    `-sOutputFile=${noText}`,
    four,
  ]);
  const blank = join(dir, 'blank.pdf');
  execFileSync('gs', [
    '-q',
    '-dSAFER',
    '-dBATCH',
    '-dNOPAUSE',
    '-sDEVICE=pdfwrite',
    `-sOutputFile=${blank}`,
    '-c',
    'showpage showpage showpage showpage',
  ]);
  const notPdf = join(dir, 'junk.pdf');
  execFileSync('sh', ['-c', `head -c 3000 ${four} > ${notPdf}`]);
  return { twoPages, noText, blank, notPdf };
}

/** A one-page PDF drawing `ops` with Helvetica as /F1. */
function onePagePdf(path: string, ops: string): string {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((o, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  writeFileSync(path, pdf);
  return path;
}

const check = (tool: string, inputs: string[], result: string, options: Record<string, unknown> = {}, j = job()) =>
  verifyResult({
    tool: findTool(tool)!,
    inputs: inputs.map((path) => ({ path, kind: 'pdf' as const })),
    options,
    result: { path: result, kind: 'pdf' },
    job: j,
  });

describe('verifyResult', () => {
  it('passes a faithful result and names what it checked', async () => {
    expect(await check('rotate-pdf', [four], four)).toEqual(['opens', 'pages', 'text', 'pixels']);
    const merged = join(job().workdir, 'm.pdf');
    execFileSync('qpdf', ['--empty', '--pages', four, four, '--', merged]);
    expect(await check('pdf-merge', [four, four], merged)).toEqual(['opens', 'pages', 'text', 'pixels']);
  });

  it('catches each broken promise', async () => {
    const j = job();
    const bad = broken(j.workdir);
    const failure = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as VerificationError).check;
    expect(await failure(check('rotate-pdf', [four], bad.notPdf, {}, j))).toBe('opens');
    expect(await failure(check('rotate-pdf', [four], bad.twoPages, {}, j))).toBe('pages');
    expect(await failure(check('pdf-merge', [four, four], four, {}, j))).toBe('pages');
    expect(await failure(check('pdf-page-remove', [four], bad.twoPages, { pages: '2' }, j))).toBe('pages');
    expect(await failure(check('pdf-compress', [four], bad.noText, {}, j))).toBe('text');
    expect(await failure(check('pdf-compress', [four], bad.blank, {}, j))).toBe('text');
    expect(await failure(check('add-watermark', [four], four, { text: 'CONFIDENTIAL' }, j))).toBe('text');
  });

  it('catches a page that came out blank with its text still there, and excuses one that was blank already', async () => {
    const j = job();
    const shown = onePagePdf(join(j.workdir, 'shown.pdf'), 'BT /F1 36 Tf 72 600 Td (Quarterly report) Tj ET');
    // Render mode 3: the same text, extracted as before, but nothing drawn.
    const hidden = onePagePdf(join(j.workdir, 'hidden.pdf'), 'BT 3 Tr /F1 36 Tf 72 600 Td (Quarterly report) Tj ET');
    const err = (await check('rotate-pdf', [shown], hidden, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(err.check).toBe('pixels');
    expect(await check('rotate-pdf', [hidden], hidden, {}, j)).toEqual(['opens', 'pages', 'text', 'pixels']);
    const { blank } = broken(j.workdir);
    expect(await check('rotate-pdf', [blank], blank, {}, j)).toEqual(['opens', 'pages', 'text', 'pixels']);
  });

  it('compares each page with its own, whether pages are read together or one by one', async () => {
    const j = job();
    const eleven = join(corpus, 'pdf/qpdf-11-pages.pdf'); // "Original page N" on page N
    const thirty = join(corpus, 'pdf/qpdf-page-labels-and-outlines.pdf');
    // Eleven pages are read in one run each (names padded p-01…p-11); a spread of thirty, page by page.
    expect(await check('rotate-pdf', [eleven], eleven, {}, j)).toEqual(['opens', 'pages', 'text', 'pixels']);
    expect(await check('rotate-pdf', [thirty], thirty, {}, j)).toEqual(['opens', 'pages', 'text', 'pixels']);
    const reversed = join(j.workdir, 'reversed.pdf');
    execFileSync('qpdf', [eleven, '--pages', '.', 'z-1', '--', reversed]);
    const err = (await check('rotate-pdf', [eleven], reversed, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(err.check).toBe('text');
    const swapped = join(j.workdir, 'swapped.pdf');
    execFileSync('qpdf', [thirty, '--pages', '.', '2,1,3-30', '--', swapped]); // "Potato 1" first
    const err2 = (await check('rotate-pdf', [thirty], swapped, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(err2.check).toBe('text');
  });

  it('says the error is ours, without details, in the contract shape', async () => {
    const j = job();
    const bad = broken(j.workdir);
    const err = (await check('pdf-compress', [four], bad.noText, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(err.code).toBe('internal');
    expect(err.toBody().error.message).not.toMatch(/text|page/);
  });

  it('keeps page removal honest', async () => {
    const j = job();
    const kept = join(j.workdir, 'kept.pdf');
    execFileSync('qpdf', [four, '--pages', '.', '1,3-4', '--', kept]);
    expect(await check('pdf-page-remove', [four], kept, { pages: '2' }, j)).toContain('text');
    const wrong = join(j.workdir, 'wrong.pdf');
    execFileSync('qpdf', [four, '--pages', '.', '1-3', '--', wrong]);
    const err = (await check('pdf-page-remove', [four], wrong, { pages: '2' }, j).catch(
      (e: unknown) => e,
    )) as VerificationError;
    expect(err.check).toBe('text');
  });
});

describe('pageIsBlank', () => {
  it('tells a blank page from a page with content', async () => {
    const j = job();
    const bad = broken(j.workdir);
    expect(await pageIsBlank(bad.blank, 1, j)).toBe(true);
    expect(await pageIsBlank(four, 1, j)).toBe(false);
    // With its text filtered out, a page of prose has nothing left to draw.
    expect(await pageIsBlank(bad.noText, 1, j)).toBe(true);
  });
});

describe('helpers', () => {
  it('samples long documents, first and last pages included', () => {
    expect(samplePageNumbers(5)).toEqual([1, 2, 3, 4, 5]);
    const s = samplePageNumbers(1000);
    expect(s).toHaveLength(12);
    expect(s[0]).toBe(1);
    expect(s.at(-1)).toBe(1000);
  });

  it('counts missing words with repeats', () => {
    expect(missingItems(['a', 'b', 'a'], ['a', 'b'])).toEqual(['a']);
    expect(missingItems(['a'], ['b', 'a'])).toEqual([]);
  });
});
