import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { findTool } from '@quire/catalog';
import { createLogger, createMetrics, exec, ToolError } from '@quire/base';
import { pageCount } from './page-count.ts';
import { pageIsBlank, renderedPageBytes, runWorthBytes, spanOf, VerifyCache } from './page-reads.ts';
import {
  missingItems,
  readInputsAhead,
  samplePageNumbers,
  verifyCounted,
  verifyResult,
  VerificationError,
  wordsLost,
} from './verify.ts';

// The real exec, counted: what verification runs is what these tests look at, not how long it takes.
vi.mock('@quire/base', async (importOriginal) => {
  const real = await importOriginal<typeof import('@quire/base')>();
  return { ...real, exec: vi.fn(real.exec) };
});
const runs = vi.mocked(exec);
/** The external runs a call makes, as "program file" (pages and options left out). */
async function runsOf(call: () => Promise<unknown>): Promise<string[]> {
  runs.mockClear();
  await call();
  return runs.mock.calls.map(([cmd, args]) => `${cmd} ${args.find((a) => a.endsWith('.pdf')) ?? ''}`);
}

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

const check = (
  tool: string,
  inputs: string[],
  result: string,
  options: Record<string, unknown> = {},
  j = job(),
  cache?: VerifyCache,
) =>
  verifyResult({
    tool: findTool(tool)!,
    inputs: inputs.map((path) => ({ path, kind: 'pdf' as const })),
    options,
    result: { path: result, kind: 'pdf' },
    job: j,
    ...(cache && { cache }),
  });

describe('verifyResult', () => {
  it('passes a faithful result and names what it checked', async () => {
    expect(await check('rotate-pdf', [four], four)).toEqual(['opens', 'pages', 'text', 'pixels']);
    const merged = join(job().workdir, 'm.pdf');
    execFileSync('qpdf', ['--empty', '--pages', four, four, '--', merged]);
    expect(await check('pdf-merge', [four, four], merged)).toEqual(['opens', 'pages', 'text', 'pixels']);
  });

  it('reads pages again unturned when turning them regrouped their words', async () => {
    // Page 85 of this paper holds formulas; turned, pdftotext groups 30 of its 399 words differently.
    const paper = join(corpus, 'pdf/pypdf-geotopo-117-pages.pdf');
    const turned = join(job().workdir, 'turned.pdf');
    execFileSync('qpdf', [paper, turned, '--rotate=+90:85']);
    expect(await check('rotate-pdf', [paper], turned)).toEqual(['opens', 'pages', 'text', 'pixels']);
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
    const thirty = join(corpus, 'pdf/qpdf-page-labels-and-outlines.pdf'); // 16 KB
    const long = join(corpus, 'pdf/pypdf-geotopo-117-pages.pdf'); // 1.8 MB
    // Eleven pages are read in one run each (names padded p-01…p-11), and so is a spread of thirty
    // small ones; a spread of 117 pages of 15 KB each is copied out by qpdf and read there, in one run,
    // and the output's sampled pages are read where they were copied out to be opened.
    expect(await check('rotate-pdf', [eleven], eleven, {}, j)).toEqual(['opens', 'pages', 'text', 'pixels']);
    const thirtyRuns = await runsOf(() => check('rotate-pdf', [thirty], thirty, {}, job()));
    expect(thirtyRuns.filter((r) => r.startsWith('pdftotext')).length).toBe(2); // the input's, the output's copy
    expect(thirtyRuns.filter((r) => r.startsWith('pdftoppm')).length).toBe(1);
    const longRuns = await runsOf(() => check('rotate-pdf', [long], long, {}, job()));
    expect(longRuns.filter((r) => r.startsWith('pdftotext')).length).toBe(2); // the input's, the output's copy
    expect(longRuns.filter((r) => r.startsWith('pdftoppm')).length).toBe(1);
    const longSwapped = join(j.workdir, 'long-swapped.pdf');
    execFileSync('qpdf', [long, '--pages', '.', '117,2-116,1', '--', longSwapped]); // both sampled
    const err0 = (await check('rotate-pdf', [long], longSwapped, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(err0.check).toBe('text');
    const reversed = join(j.workdir, 'reversed.pdf');
    execFileSync('qpdf', [eleven, '--pages', '.', 'z-1', '--', reversed]);
    const err = (await check('rotate-pdf', [eleven], reversed, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(err.check).toBe('text');
    const swapped = join(j.workdir, 'swapped.pdf');
    execFileSync('qpdf', [thirty, '--pages', '.', '2,1,3-30', '--', swapped]); // "Potato 1" first
    const err2 = (await check('rotate-pdf', [thirty], swapped, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(err2.check).toBe('text');
  });

  it("parses the content of the result's copied pages only: an input's copy is made to be read", async () => {
    const j = job();
    const long = join(corpus, 'pdf/pypdf-geotopo-117-pages.pdf'); // 1.8 MB: both sides' samples are copied out
    const turned = join(j.workdir, 'turned.pdf');
    execFileSync('qpdf', [long, turned, '--rotate=+90']);
    await runsOf(() => check('rotate-pdf', [long], turned, {}, j));
    const picks = runs.mock.calls
      .filter(([cmd]) => cmd === 'mutool')
      .map(([, args]) => ({ from: args[2], to: args[3] }));
    expect(picks.map((p) => p.from).sort()).toEqual([long, turned].sort());
    const parses = runs.mock.calls.filter(
      ([cmd, args]) => cmd === 'qpdf' && args.includes('--externalize-inline-images'),
    );
    expect(parses.map(([, args]) => args[0])).toEqual([picks.find((p) => p.from === turned)!.to]);
  });

  it('says the error is ours, without details, in the contract shape', async () => {
    const j = job();
    const bad = broken(j.workdir);
    const err = (await check('pdf-compress', [four], bad.noText, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(err.code).toBe('internal');
    expect(err.toBody().error.message).not.toMatch(/text|page/);
  });

  it('blames a damaged input, not us, for a result that fails: damaged_input, counted and logged', async () => {
    const j = job();
    const { blank } = broken(j.workdir);
    const repaired = join(corpus, 'pdf-broken/qpdf-damaged-stream.pdf'); // qpdf warns, repairs and reads it
    const kit = { metrics: createMetrics('verify-test'), log: createLogger('verify-test') };
    const warned = vi.spyOn(kit.log, 'warn');
    const counted = (tool: string, input: string) =>
      verifyCounted(
        {
          tool: findTool(tool)!,
          inputs: [{ path: input, kind: 'pdf' }],
          options: {},
          result: { path: blank, kind: 'pdf' },
          job: j,
        },
        tool,
        kit,
      ).then(
        () => undefined,
        (e: unknown) => e as ToolError,
      );
    expect((await counted('pdf-metadata-cleaner', repaired))?.code).toBe('damaged_input');
    expect(warned).toHaveBeenLastCalledWith(
      'result failed verification',
      expect.objectContaining({ inputDamaged: true }),
    );
    expect((await counted('rotate-pdf', four))?.code).toBe('internal');
    expect(warned).toHaveBeenLastCalledWith(
      'result failed verification',
      expect.objectContaining({ inputDamaged: false }),
    );
    const metric = await kit.metrics.registry.getSingleMetricAsString('quire_verification_failures_total');
    expect(metric).toMatch(/tool="pdf-metadata-cleaner".* 1$/m);
    expect(metric).toMatch(/tool="rotate-pdf".* 1$/m);
  });

  it("reads a split's parts as one file, and still tells a part that holds the wrong page", async () => {
    const j = job();
    const eleven = join(corpus, 'pdf/qpdf-11-pages.pdf'); // "Original page N" on page N
    /** A zip of parts, the i-th holding the input's pages `order[i]`. */
    const zipOf = (name: string, order: string[]) => {
      const parts = order.map((pages, i) => {
        const part = join(j.workdir, `${name}-${String(i + 1).padStart(2, '0')}.pdf`);
        execFileSync('qpdf', [eleven, '--pages', '.', pages, '--', part]);
        return part;
      });
      const zip = join(j.workdir, `${name}.zip`);
      execFileSync('/usr/bin/python3', ['-m', 'zipfile', '-c', zip, ...parts]);
      return zip;
    };
    const split = (zip: string, options: Record<string, unknown> = {}) =>
      verifyResult({
        tool: findTool('pdf-split')!,
        inputs: [{ path: eleven, kind: 'pdf' }],
        options,
        result: { path: zip, kind: 'zip' },
        job: job(),
      });
    const pages = Array.from({ length: 11 }, (_, i) => String(i + 1));
    const everyPage = zipOf('every', pages);
    const read = await runsOf(() => split(everyPage));
    // Eleven parts are opened by the join and counted by MuPDF in one run; their text and pixels are read from the join.
    expect(read.filter((r) => r === 'qpdf ').length).toBe(0); // unpacked parts are named by number
    expect(read.filter((r) => r.startsWith('mutool')).length).toBe(1);
    expect(read.filter((r) => r.startsWith('pdftotext')).length).toBe(2); // the input and the parts
    expect(read.filter((r) => r.startsWith('pdftoppm')).length).toBe(1); // the parts
    expect(await split(everyPage)).toEqual(['opens', 'pages', 'text', 'pixels']);
    expect(await split(zipOf('ranges', ['1-3', '4-10', '11']), { ranges: '1-3,4-10,11' })).toEqual([
      'opens',
      'pages',
      'text',
      'pixels',
    ]);
    const swapped = zipOf('swapped', ['2', '1', ...pages.slice(2)]);
    expect(((await split(swapped).catch((e: unknown) => e)) as VerificationError).check).toBe('text');
    const short = zipOf('short', ['1-3', '4-9', '11']);
    const err = (await split(short, { ranges: '1-3,4-10,11' }).catch((e: unknown) => e)) as VerificationError;
    expect(err.check).toBe('pages');
    // A part qpdf warns of when joining (its cross-reference table a byte off) has every part checked on its own.
    zipOf('shifted', pages);
    const third = join(j.workdir, 'shifted-03.pdf');
    const rezipped = (name: string) => {
      const zip = join(j.workdir, `${name}.zip`);
      const parts = pages.map((_, i) => join(j.workdir, `shifted-${String(i + 1).padStart(2, '0')}.pdf`));
      execFileSync('/usr/bin/python3', ['-m', 'zipfile', '-c', zip, ...parts]);
      return zip;
    };
    writeFileSync(third, Buffer.concat([Buffer.from(' '), readFileSync(third)]));
    const repaired = rezipped('repaired');
    expect((await runsOf(() => split(repaired))).filter((r) => r === 'qpdf ').length).toBe(11);
    expect(await split(repaired)).toEqual(['opens', 'pages', 'text', 'pixels']);
    writeFileSync(third, '%PDF-1.7\nnot a PDF at all');
    const bad = rezipped('bad');
    expect(((await split(bad).catch((e: unknown) => e)) as VerificationError).check).toBe('opens');
  });

  it("reads a long result's structure whole and decodes only its sampled pages' streams, catching what it did", async () => {
    const j = job();
    const thirty = join(corpus, 'pdf/qpdf-page-labels-and-outlines.pdf'); // "Potato N" on page N
    const made = (name: string, args: string[]) => {
      const out = join(j.workdir, name);
      execFileSync('qpdf', [...args, out]);
      return out;
    };
    const failure = async (result: string, tool = 'rotate-pdf', options: Record<string, unknown> = {}) =>
      ((await check(tool, [thirty], result, options, j).catch((e: unknown) => e)) as VerificationError).check;
    const turned = made('turned.pdf', [thirty, '--rotate=+90']);
    const read = await runsOf(() => check('rotate-pdf', [thirty], turned, {}, j));
    // No full check of the result: its page tree is read, and the sampled pages' content is parsed as they are copied out.
    expect(runs.mock.calls.filter(([cmd, args]) => cmd === 'qpdf' && args.includes('--check'))).toEqual([]);
    const copies = runs.mock.calls.filter(
      ([cmd, args]) => cmd === 'qpdf' && args.includes('--externalize-inline-images'),
    );
    expect(copies.map(([, args]) => args.at(-1))).toEqual([expect.stringMatching(/copy-.*\.pdf$/)]);
    // MuPDF picked the pages out of a sound file; qpdf only parsed what it picked.
    expect(runs.mock.calls.filter(([cmd, args]) => cmd === 'mutool' && args.includes(turned))).toHaveLength(1);
    expect(runs.mock.calls.filter(([cmd, args]) => cmd === 'qpdf' && args.includes('--pages'))).toEqual([]);
    expect(read).toContain(`qpdf ${turned}`);
    expect(await check('rotate-pdf', [thirty], turned, {}, j)).toEqual(['opens', 'pages', 'text', 'pixels']);

    // A sampled page whose content stream does not decode: the last page, from a one-page file made to fail.
    const badStream = join(j.workdir, 'bad-stream.pdf');
    const good = onePagePdf(join(j.workdir, 'one.pdf'), 'BT /F1 24 Tf 72 600 Td (Potato 30) Tj ET');
    const text = readFileSync(good, 'latin1').replace('<< /Length', '<< /Filter /FlateDecode /Length');
    writeFileSync(badStream, text, 'latin1');
    const lastBroken = made('last-broken.pdf', [
      '--empty',
      '--stream-data=preserve',
      '--pages',
      thirty,
      '1-29',
      badStream,
      '1',
      '--',
    ]);
    expect(await failure(lastBroken)).toBe('opens');
    // A file MuPDF has to repair to read (its cross-reference table a byte off) is copied by qpdf, as before.
    const shifted = join(j.workdir, 'shifted.pdf');
    writeFileSync(shifted, Buffer.concat([Buffer.from(' '), readFileSync(turned)]));
    runs.mockClear();
    expect(await check('rotate-pdf', [thirty], shifted, {}, j)).toEqual(['opens', 'pages', 'text', 'pixels']);
    expect(runs.mock.calls.filter(([cmd, args]) => cmd === 'mutool' && args.includes(shifted))).toHaveLength(1);
    expect(runs.mock.calls.filter(([cmd, args]) => cmd === 'qpdf' && args.includes('--pages'))).toHaveLength(1);
    const { notPdf } = broken(j.workdir);
    expect(await failure(notPdf)).toBe('opens');
    expect(await failure(made('short.pdf', [thirty, '--pages', '.', '1-29', '--']))).toBe('pages');
    expect(await failure(made('swapped.pdf', [thirty, '--pages', '.', '30,2-29,1', '--']))).toBe('text');
    // Pages 10-11 removed, yet 28 pages kept are the wrong ones.
    expect(
      await failure(made('wrong-kept.pdf', [thirty, '--pages', '.', '1-28', '--']), 'pdf-page-remove', {
        pages: '10-11',
      }),
    ).toBe('text');
    const hidden = onePagePdf(join(j.workdir, 'hidden.pdf'), 'BT 3 Tr /F1 24 Tf 72 600 Td (Potato 30) Tj ET');
    const shown = made('shown-30.pdf', ['--empty', '--pages', thirty, '1-29', good, '1', '--']);
    const hid = made('hidden-30.pdf', ['--empty', '--pages', thirty, '1-29', hidden, '1', '--']);
    expect(((await check('rotate-pdf', [shown], hid, {}, j).catch((e: unknown) => e)) as VerificationError).check).toBe(
      'pixels',
    );
  });

  it("leaves out qpdf's full check of a result whose engine checked its streams, still catching what the rest finds", async () => {
    const j = job();
    const withFlag = (result: string) =>
      verifyResult({
        tool: findTool('pdf-ocr')!,
        inputs: [{ path: four, kind: 'pdf' }],
        options: {},
        result: { path: result, kind: 'pdf', streamsChecked: true },
        // A job of its own: nothing read by the check without the flag is recalled.
        job: job(),
      });
    const fullChecks = () => runs.mock.calls.filter(([cmd, args]) => cmd === 'qpdf' && args.includes('--check'));
    const copy = join(j.workdir, 'copy.pdf');
    execFileSync('qpdf', [four, copy]);
    expect(await runsOf(() => check('pdf-ocr', [four], copy, {}, j))).toContain(`qpdf ${copy}`);
    expect(fullChecks().map(([, args]) => args.at(-1))).toEqual([copy]);
    let passed: string[] = [];
    const read = await runsOf(async () => (passed = await withFlag(copy)));
    // Its structure and sampled pages are still read; no stream of it is decoded by qpdf.
    expect(read).toContain(`qpdf ${copy}`);
    expect(fullChecks()).toEqual([]);
    expect(passed).toEqual(['opens', 'pages', 'pixels']);
    const { twoPages, blank, notPdf } = broken(j.workdir);
    const failure = async (result: string) =>
      ((await withFlag(result).catch((e: unknown) => e)) as VerificationError).check;
    expect(await failure(notPdf)).toBe('opens');
    expect(await failure(twoPages)).toBe('pages');
    expect(await failure(blank)).toBe('pixels');
  });

  it("takes a long result's page count as claimed when it is the count planned, and still catches a tree shorter than its claim", async () => {
    const j = job();
    const thirty = join(corpus, 'pdf/qpdf-page-labels-and-outlines.pdf');
    const long = join(j.workdir, 'long.pdf'); // 2,100 pages: past the count believed unwalked
    execFileSync('qpdf', [
      '--empty',
      '--pages',
      ...Array.from({ length: 70 }, () => [thirty, '1-z']).flat(),
      '--',
      long,
    ]);
    const turned = join(j.workdir, 'turned.pdf');
    execFileSync('qpdf', [long, turned, '--rotate=+90']);
    runs.mockClear();
    expect(await check('rotate-pdf', [long], turned, {}, j)).toEqual(['opens', 'pages', 'text', 'pixels']);
    const walks = runs.mock.calls.filter(([, args]) => args.includes('--show-pages') && args.includes(turned));
    expect(walks).toEqual([]);

    // 2,099 pages under a /Count of 2,100, as planned: the copy of the sampled pages, the last among them, fails.
    const qdf = join(j.workdir, 'short.qdf');
    execFileSync('qpdf', [turned, '--qdf', '--object-streams=disable', '--pages', '.', '1-2099', '--', qdf]);
    const lying = join(j.workdir, 'lying.pdf');
    writeFileSync(
      lying,
      execFileSync('fix-qdf', [qdf]).toString('latin1').replace('/Count 2099', '/Count 2100'),
      'latin1',
    );
    expect(execFileSync('qpdf', ['--show-npages', lying]).toString().trim()).toBe('2100');
    const failed = (await check('rotate-pdf', [long], lying, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(failed).toBeInstanceOf(VerificationError);
    expect(['opens', 'pages']).toContain(failed.check);
  });

  it('opens a result made from an image by a tool whose pages follow an input PDF, with nothing to compare', async () => {
    const image = join(corpus, 'images/textract-raw_text.png');
    const result = await verifyResult({
      tool: findTool('pdf-ocr')!,
      inputs: [{ path: image, kind: 'png' }],
      options: {},
      result: { path: four, kind: 'pdf' },
      job: job(),
    });
    expect(result).toEqual(['opens']);
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

describe('a protected result', () => {
  const granted = { allowPrint: true, allowCopy: true, allowModify: true, allowAnnotate: true, allowFillForms: true };
  /** `four` encrypted by qpdf's command line: `encrypt` is what follows --encrypt (passwords, bits, restrictions). */
  const encrypted = (j: ReturnType<typeof job>, name: string, ...encrypt: string[]) => {
    const out = join(j.workdir, name);
    execFileSync('qpdf', ['--allow-weak-crypto', '--encrypt', ...encrypt, '--', four, out]);
    return out;
  };
  const failure = async (result: string, options: Record<string, unknown>, j = job()) =>
    ((await check('protect-pdf', [four], result, options, j).catch((e: unknown) => e)) as VerificationError).check;

  it('needs the password, opens with it, and is checked decrypted as whoever opens it sees it', async () => {
    const j = job();
    const locked = encrypted(j, 'locked.pdf', 'pässwörd', 'owner', '256', '--print=none', '--extract=n');
    const options = {
      ...granted,
      userPassword: 'pässwörd',
      ownerPassword: 'owner',
      allowPrint: false,
      allowCopy: false,
    };
    expect(await check('protect-pdf', [four], locked, options, j)).toEqual([
      'encrypted',
      'permissions',
      'opens',
      'pages',
      'text',
      'pixels',
    ]);
    // No password file is left behind once the check is done.
    expect(readdirSync(j.workdir).filter((f) => f.startsWith('pw-'))).toEqual([]);
  });

  it('catches a result that is not what was asked', async () => {
    const j = job();
    const options = { ...granted, userPassword: 'user', ownerPassword: 'owner' };
    expect(await failure(four, options, j)).toBe('encrypted'); // not encrypted at all
    expect(await failure(encrypted(j, 'other.pdf', 'other', 'owner', '256'), options, j)).toBe('encrypted');
    expect(await failure(encrypted(j, 'aes128.pdf', 'user', 'owner', '128', '--use-aes=y'), options, j)).toBe(
      'encrypted',
    );
    // Opens without a password: an empty user password.
    expect(await failure(encrypted(j, 'empty.pdf', '', 'owner', '256'), options, j)).toBe('encrypted');
    // The owner password given does not open it as owner.
    expect(await failure(encrypted(j, 'owner.pdf', 'user', 'someone-else', '256'), options, j)).toBe('encrypted');
    const printable = encrypted(j, 'printable.pdf', 'user', 'owner', '256');
    expect(await failure(printable, { ...options, allowPrint: false }, j)).toBe('permissions');
    const noForms = encrypted(j, 'no-forms.pdf', 'user', 'owner', '256', '--form=n');
    expect(await failure(noForms, options, j)).toBe('permissions');
    // Withheld, but the password to open it is the owner's too: whoever opens it may lift the restriction.
    const same = encrypted(j, 'same.pdf', 'user', 'user', '256', '--print=none');
    expect(await failure(same, { ...options, ownerPassword: undefined, allowPrint: false }, j)).toBe('permissions');
    // The password in the options must be there to check with.
    expect(await failure(printable, { ...granted }, j)).toBe('encrypted');
  });
});

describe('pages recovered from a damaged input', () => {
  const damaged = (name: string) => join(corpus, 'pdf-broken', name);
  const repair = (input: string, result: string, j = job()) => check('repair-pdf', [input], result, {}, j);

  it("keeps every page a reader shows, cleanly, and leaves out one a page tree's loop only shows again", async () => {
    const j = job();
    const junk = damaged('qpdf-append-xref-loop.pdf'); // 30 pages, its xref chain looping
    const rebuilt = join(j.workdir, 'rebuilt.pdf');
    spawnSync('qpdf', [junk, rebuilt]); // exit 3: repaired on the way
    expect(await repair(junk, rebuilt, j)).toEqual(['opens', 'clean', 'pages', 'text', 'pixels']);
    // Poppler shows this tree's one page twice; the repaired file holds it once.
    const loop = damaged('pdfjs-Pages-tree-refs.pdf');
    const once = join(j.workdir, 'once.pdf');
    execFileSync('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=pdfwrite', `-sOutputFile=${once}`, loop]);
    expect(await repair(loop, once, j)).toEqual(['opens', 'clean', 'pages', 'text', 'pixels']);
  });

  it('catches a result that needs repair itself, or lost a page or its words', async () => {
    const j = job();
    const failure = async (input: string, result: string) =>
      ((await repair(input, result, j).catch((e: unknown) => e)) as VerificationError).check;
    // qpdf keeps a stream it cannot decode as it was: the copy still warns.
    const stream = damaged('qpdf-damaged-stream.pdf');
    const copied = join(j.workdir, 'copied.pdf');
    spawnSync('qpdf', [stream, copied]);
    expect(await failure(stream, copied)).toBe('opens');
    const junk = damaged('qpdf-append-xref-loop.pdf');
    const short = join(j.workdir, 'short.pdf');
    spawnSync('qpdf', [junk, '--pages', '.', '1-29', '--', short]);
    expect(await failure(junk, short)).toBe('pages');
    const swapped = join(j.workdir, 'swapped.pdf');
    spawnSync('qpdf', [junk, '--pages', '.', '30,2-29,1', '--', swapped]);
    expect(await failure(junk, swapped)).toBe('text');
    // Nothing of this file is left for a reader to show: blank pages made from it are not pages recovered.
    const husk = join(j.workdir, 'husk.pdf');
    writeFileSync(husk, '%PDF-1.7\nnothing else survived\n');
    expect(await failure(husk, broken(j.workdir).blank)).toBe('pages');
    expect(await repair(husk, four, j)).toEqual(['opens', 'clean']);
  });
});

describe('what verification reads again', () => {
  it('reads nothing twice in one job: a second check of the same files runs nothing', async () => {
    const j = job();
    const first = await runsOf(() => check('rotate-pdf', [four], four, {}, j));
    expect(first.length).toBeGreaterThanOrEqual(4); // opens, counts, text of each, pixels
    expect(await runsOf(() => check('rotate-pdf', [four], four, {}, j))).toEqual([]);
    // Another job reads again; a cache handed over is shared between jobs.
    expect((await runsOf(() => check('rotate-pdf', [four], four, {}, job()))).length).toBe(first.length);
    const cache = new VerifyCache();
    await check('rotate-pdf', [four], four, {}, job(), cache);
    expect(await runsOf(() => check('rotate-pdf', [four], four, {}, job(), cache))).toEqual([]);
  });

  it('reads a new candidate against the input read before, and still fails a broken one', async () => {
    const j = job();
    const bad = broken(j.workdir);
    const good = join(j.workdir, 'good.pdf');
    execFileSync('qpdf', [four, good]);
    expect(await check('pdf-compress', [four], good, {}, j)).toEqual(['opens', 'pages', 'text', 'pixels']);
    const again = await runsOf(() => check('pdf-compress', [four], bad.noText, {}, j).catch((e: unknown) => e));
    // The input's count and text are known: it is only copied unturned, to read a failing page again.
    expect(again.filter((r) => r.endsWith(four))).toEqual([`qpdf ${four}`]);
    expect(
      ((await check('pdf-compress', [four], bad.noText, {}, j).catch((e: unknown) => e)) as VerificationError).check,
    ).toBe('text');
  });

  it('knows files by content: a file rewritten at the same path is read afresh', async () => {
    const j = job();
    const out = join(j.workdir, 'out.pdf');
    copyFileSync(four, out);
    expect(await check('rotate-pdf', [four], out, {}, j)).toEqual(['opens', 'pages', 'text', 'pixels']);
    const { blank } = broken(j.workdir);
    copyFileSync(blank, out);
    const err = (await check('rotate-pdf', [four], out, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(err.check).toBe('text');
  });

  it('reads the inputs while the tool works: the check then reads only the result', async () => {
    const j = job();
    const tool = findTool('rotate-pdf')!;
    const read = await runsOf(() =>
      readInputsAhead({ tool, inputs: [{ path: four, kind: 'pdf' }], options: {}, job: j }),
    );
    expect(read).toEqual([`qpdf ${four}`, `pdftotext ${four}`]); // its count, and its pages' text in one run
    const out = join(j.workdir, 'out.pdf');
    execFileSync('qpdf', ['--object-streams=generate', four, out]); // the same pages, other bytes
    const checked = await runsOf(() => check('rotate-pdf', [four], out, {}, j));
    expect(checked.sort()).toEqual([`pdftoppm ${out}`, `pdftotext ${out}`, `qpdf ${out}`]);
  });

  it('counts the pages a page tree holds when the file claims none, and a result made from it then passes', async () => {
    const j = job();
    const twenty = readFileSync(join(corpus, 'pdf/qpdf-rotated-20-pages.pdf'), 'latin1');
    const none = join(j.workdir, 'claims-none.pdf');
    writeFileSync(none, twenty.replace('/Count 20', '/Count 0'), 'latin1');
    expect(await pageCount(none, j)).toBe(20);
    // Its pages as a tool rebuilds them: the corpus file it was made from.
    expect(await check('pdf-compress', [none], join(corpus, 'pdf/qpdf-rotated-20-pages.pdf'), {}, j)).toEqual([
      'opens',
      'pages',
      'text',
      'pixels',
    ]);
  });

  it("counts a file's pages once a job: the tool's count serves its check", async () => {
    const j = job();
    expect(await pageCount(four, j)).toBe(4);
    const tool = findTool('rotate-pdf')!;
    const read = await runsOf(() =>
      readInputsAhead({ tool, inputs: [{ path: four, kind: 'pdf' }], options: {}, job: j }),
    );
    expect(read).toEqual([`pdftotext ${four}`]);
  });

  it('ends only once every read it started has ended, when the result fails too', async () => {
    const j = job();
    const { notPdf } = broken(j.workdir);
    runs.mockClear();
    const err = (await check('rotate-pdf', [four], notPdf, {}, j).catch((e: unknown) => e)) as VerificationError;
    expect(err.check).toBe('opens');
    // The sampled pages were being read while qpdf opened the result; none of those runs is left.
    expect(runs.mock.calls.some(([cmd, args]) => cmd === 'pdftotext' && args.includes(notPdf))).toBe(true);
    expect(runs.mock.settledResults.map((r) => r.type)).not.toContain('incomplete');
  });

  it('keeps answers, not failures', async () => {
    const cache = new VerifyCache();
    const read = vi.fn(() => Promise.reject(new Error('stopped')));
    await expect(cache.get('k', read)).rejects.toThrow('stopped');
    expect(cache.has('k')).toBe(false);
    expect(await cache.get('k', () => Promise.resolve(7))).toBe(7);
    expect(await cache.get('k', () => Promise.resolve(8))).toBe(7);
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

  it('reads a span of pages in one run when the pages between cost less than the runs saved', () => {
    expect(spanOf([3], 1000)).toBeUndefined(); // one page: nothing to save
    expect(spanOf([1, 2, 3, 4], 10_000_000)).toEqual({ first: 1, last: 4 }); // nothing between
    const spread = samplePageNumbers(30); // 12 pages, 18 between
    expect(spanOf(spread, 500)).toEqual({ first: 1, last: 30 });
    expect(spanOf(spread, (11 * runWorthBytes) / 18)).toEqual({ first: 1, last: 30 });
    expect(spanOf(spread, (11 * runWorthBytes) / 18 + 1)).toBeUndefined();
    expect(spanOf(samplePageNumbers(117), 15_000)).toBeUndefined();
    // Rendering also costs each page between, however small: 1,100 pages of 190 bytes are read as one
    // span of text, but rendered one sampled page at a time; thirty pages of 533 bytes are one span either way.
    expect(spanOf(samplePageNumbers(1100), 190)).toEqual({ first: 1, last: 1100 });
    expect(spanOf(samplePageNumbers(1100), 190, renderedPageBytes)).toBeUndefined();
    expect(spanOf(spread, 533, renderedPageBytes)).toEqual({ first: 1, last: 30 });
  });

  it('keeps text whose spaces moved, not text that lost or changed its letters', () => {
    const page = Array.from({ length: 30 }, (_, i) => `Vestibulum${i} ante ipsum primis`).join(' ');
    expect(wordsLost(page, page)).toEqual({ lost: 0, of: 120, kept: true });
    // A reader breaking words elsewhere: every letter is there.
    const rebroken = page.replace(/Vestibulum(\d+)/g, 'Vesti bulum$1').replace(/ante ipsum/g, 'anteipsum');
    expect(wordsLost(page, rebroken)).toMatchObject({ lost: 90, kept: true });
    // Two words of 120 gone (over 1 %), or letters re-encoded: lost.
    expect(wordsLost(page, page.replace('Vestibulum3 ante ipsum', 'Vestibulum3'))).toMatchObject({
      lost: 2,
      kept: false,
    });
    expect(wordsLost(page, page.replace(/i/g, 'ı'))).toMatchObject({ kept: false });
    // Spaces read as other letters: every word is there, run together with invented ones.
    expect(wordsLost(page, page.replace(/ ante/g, 'ठ⃚ante'))).toMatchObject({ kept: false });
    // Right-to-left words may come out reversed.
    expect(wordsLost('حبيبي habibi', 'يبيبح habibi').kept).toBe(true);
  });

  it('counts missing words with repeats', () => {
    expect(missingItems(['a', 'b', 'a'], ['a', 'b'])).toEqual(['a']);
    expect(missingItems(['a'], ['b', 'a'])).toEqual([]);
  });
});
