/**
 * Runs pdf-extract (in process, over HTTP as the gateway calls it) on the corpus and scores it with
 * measures.ts. Used by the fidelity tests (with floors) and by bench/fidelity.ts (the report).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Express } from 'express';
import { call } from '../../../services/pdf-extract/test/helpers.ts';
import {
  charAccuracy,
  columnize,
  compareParagraphs,
  compareTables,
  csvTable,
  docxContent,
  icdarTables,
  prf,
  tokenF1,
  tokens,
  xlsxTables,
  type ParagraphScore,
  type PRF,
} from './measures.ts';

export const corpus = new URL('../../../../shared/corpus/', import.meta.url).pathname;
// Without the corpus every measure would run on nothing (and soffice, given no file, never returns).
if (!existsSync(join(corpus, 'MANIFEST.tsv'))) {
  throw new Error(`The shared corpus is missing: expected ${corpus} beside the project`);
}

let app: Express | undefined;
async function service(): Promise<Express> {
  process.env.LOG_LEVEL ??= 'error';
  app ??= (await import('../../../services/pdf-extract/src/app.ts')).createApp();
  return app;
}

async function run(tool: string, file: string, fields: Record<string, string> = {}): Promise<string> {
  const a = await call(await service(), tool, file, fields);
  if (a.status !== 200 || !a.file) throw new Error(`${tool} ${basename(file)}: ${a.status} ${JSON.stringify(a.error)}`);
  return a.file;
}

// ---------------------------------------------------------------------------------------------------

export interface TableDocScore extends PRF {
  doc: string;
  truthTables: number;
  foundTables: number;
  /** Which ground truth scored best: 'a', or the alternative interpretation 'b'. */
  truth: number;
  variant: string;
}

export interface TablesReport {
  perDoc: TableDocScore[];
  overall: PRF;
  /** Mean of per-document F1 (the competition reports both). */
  meanF1: number;
  /** The same measure against tabula-java's and camelot's expected outputs. */
  others: { doc: string; oracle: string; f1: number; precision: number; recall: number }[];
}

/**
 * ICDAR 2013: every competition PDF through pdf-to-excel, adjacency relations against the structure
 * ground truth, each found table assigned to the truth table it shares most relations with.
 */
export async function measureTables(limit = Infinity): Promise<TablesReport> {
  const dir = join(corpus, 'tables/icdar2013');
  const docs = readdirSync(dir)
    .filter((f) => f.endsWith('.pdf'))
    .map((f) => f.replace(/\.pdf$/, ''))
    .slice(0, limit);
  const perDoc: TableDocScore[] = [];
  for (const doc of docs) {
    const found = await xlsxTables(await run('pdf-to-excel', join(dir, `${doc}.pdf`)));
    let best: TableDocScore | undefined;
    const variants = [doc, doc.replace(/a$/, 'b')].filter(
      (v, i) => i === 0 || (v !== doc && existsSync(join(dir, `${v}-str.xml`))),
    );
    for (const v of variants) {
      const truth = icdarTables(readFileSync(join(dir, `${v}-str.xml`), 'utf8'));
      const score = compareTables(truth, found);
      const entry = {
        doc,
        ...score,
        truth: score.truth,
        truthTables: truth.length,
        foundTables: found.length,
        variant: v === doc ? 'a' : 'b',
      };
      if (!best || entry.f1 > best.f1) best = entry;
    }
    perDoc.push(best!);
  }
  const correct = perDoc.reduce((n, d) => n + d.correct, 0);
  const truth = perDoc.reduce((n, d) => n + d.truth, 0);
  const found = perDoc.reduce((n, d) => n + d.found, 0);
  const others: TablesReport['others'] = [];
  for (const [folder, oracle] of [
    ['tables/tabula', 'tabula'],
    ['tables/camelot', 'camelot'],
  ] as const) {
    const d = join(corpus, folder);
    for (const pdf of readdirSync(d).filter((f) => f.endsWith('.pdf'))) {
      const stem = pdf.replace(/\.pdf$/, '');
      const csvDir = folder.endsWith('camelot') ? join(d, 'derived-csv') : d;
      const csvs = readdirSync(csvDir).filter(
        (f) => f === `${stem}.csv` || (f.startsWith(`${stem}.table`) && f.endsWith('.csv')),
      );
      if (!csvs.length) continue;
      const truth = csvs.map((c) => csvTable(readFileSync(join(csvDir, c), 'utf8')));
      const foundTables = await xlsxTables(await run('pdf-to-excel', join(d, pdf)));
      const s = compareTables(truth, foundTables);
      others.push({ doc: stem, oracle, f1: s.f1, precision: s.precision, recall: s.recall });
    }
  }
  return {
    perDoc,
    overall: prf(correct, truth, found),
    meanF1: perDoc.reduce((n, d) => n + d.f1, 0) / (perDoc.length || 1),
    others,
  };
}

// ---------------------------------------------------------------------------------------------------

export interface TextReport {
  /** accuracy: character accuracy in reading order; wordF1: the words as multisets, order aside. */
  perDoc: { doc: string; accuracy: number; wordF1: number; oracle: string }[];
  mean: number;
  meanWordF1: number;
}

/** Character accuracy of pdf-to-text against the corpus's expected texts (scans excluded: no OCR). */
export async function measureText(): Promise<TextReport> {
  const dir = join(corpus, 'pdf');
  const cases = [
    { pdf: 'textract-raw_text.pdf', expected: 'textract-raw_text.expected.txt', layout: false },
    { pdf: 'textract-two_column.pdf', expected: 'textract-two_column.expected.txt', layout: true },
    {
      pdf: 'pdfplumber-scotus-transcript-p1.pdf',
      expected: 'pdfplumber-scotus-transcript-p1.expected-layout.txt',
      layout: false,
    },
  ];
  const perDoc: TextReport['perDoc'] = [];
  for (const c of cases) {
    const out = readFileSync(await run('pdf-to-text', join(dir, c.pdf)), 'utf8');
    let expected = readFileSync(join(dir, c.expected), 'utf8');
    if (c.layout) expected = columnize(expected);
    perDoc.push({
      doc: c.pdf,
      accuracy: charAccuracy(out, expected),
      wordF1: tokenF1(tokens(expected), tokens(out)),
      oracle: c.layout ? `${c.expected} (columns in reading order)` : c.expected,
    });
  }
  const mean = (f: (d: TextReport['perDoc'][number]) => number) => perDoc.reduce((n, d) => n + f(d), 0) / perDoc.length;
  return { perDoc, mean: mean((d) => d.accuracy), meanWordF1: mean((d) => d.wordF1) };
}

// ---------------------------------------------------------------------------------------------------

export interface WordDocScore {
  doc: string;
  ours: ParagraphScore;
  baseline?: ParagraphScore;
}

export interface WordReport {
  perDoc: WordDocScore[];
  ours: Summary;
  baseline?: Summary;
  soffice: string;
}

/** The strict measures pooled over the documents: counts summed, then precision and recall. */
export interface Summary {
  paragraphs: PRF;
  headings: ParagraphScore['headings'];
  tables: ParagraphScore['tables'];
  frames: number;
  /** The lenient best-match mean, averaged over documents (see ParagraphScore.lenientF1). */
  lenientF1: number;
}

/** The corpus's Writer documents (the password-protected ones aside). */
const wordSources = [
  'office/gotenberg-Special_Chars_ß.docx',
  'office/gotenberg-pages_12.docx',
  'office/jod-test.docx',
  'office/textract-paragraphs_and_tables.docx',
  'office/jod-test.odt',
  'office/jod-test_toc.odt',
  'office/textract-raw_text.odt',
  'office/jod-test_multi_page.doc',
  'office/jod-test.rtf',
  'office/jod-test.doc',
  'office/jod-test.fodt',
  'office/textract-raw_text.doc',
];

/**
 * A cold soffice run. coreutils' `timeout` signals its whole process group, so soffice.bin dies with
 * its launcher when a conversion hangs.
 */
function soffice(profile: string, args: string[]): void {
  const r = spawnSync(
    'timeout',
    ['--kill-after=10', '600', 'soffice', `-env:UserInstallation=file://${profile}`, '--headless', ...args],
    { stdio: 'ignore' },
  );
  if (r.status !== 0) throw new Error(`soffice ${args.join(' ')} exited ${r.status}`);
}

export function hasSoffice(): boolean {
  return spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0;
}

function summarize(scores: ParagraphScore[]): Summary {
  const sum = (f: (x: ParagraphScore) => number) => scores.reduce((n, x) => n + f(x), 0);
  const h = (k: keyof ParagraphScore['headings']) => sum((x) => x.headings[k]);
  const t = (k: keyof ParagraphScore['tables']) => sum((x) => x.tables[k]);
  return {
    paragraphs: prf(
      sum((x) => x.paragraphs.correct),
      sum((x) => x.paragraphs.truth),
      sum((x) => x.paragraphs.found),
    ),
    headings: {
      source: h('source'),
      output: h('output'),
      correct: h('correct'),
      invented: h('invented'),
      missed: h('missed'),
      sameLevel: h('sameLevel'),
    },
    tables: { source: t('source'), output: t('output'), matched: t('matched') },
    frames: sum((x) => x.frames),
    lenientF1: sum((x) => x.lenientF1) / (scores.length || 1),
  };
}

/**
 * Word round trip: each source document to PDF with LibreOffice (cold, private profile), then our
 * pdf-to-word, and in the same run LibreOffice's own PDF import (writer_pdf_import, saved as DOCX)
 * as the baseline; both compared paragraph by paragraph with the source (itself saved as DOCX).
 */
export async function measureWord(opts: { baseline: boolean } = { baseline: true }): Promise<WordReport> {
  const work = mkdtempSync(join(tmpdir(), 'fidelity-word-'));
  try {
    const profile = join(work, 'profile');
    const src = join(work, 'src');
    const pdf = join(work, 'pdf');
    const srcDocx = join(work, 'src-docx');
    const base = join(work, 'base');
    for (const d of [src, pdf, srcDocx, base]) mkdirSync(d);
    const names: string[] = [];
    for (const rel of wordSources) {
      const from = join(corpus, rel);
      if (!existsSync(from)) continue;
      // Distinct stems: jod-test.docx and jod-test.odt would both become jod-test.pdf.
      const name = basename(rel).replace(/\.(\w+)$/, '-$1.$1');
      copyFileSync(from, join(src, name));
      names.push(name);
    }
    if (names.length === 0) throw new Error('None of the Word round trip sources is in the corpus');
    soffice(profile, ['--convert-to', 'pdf', '--outdir', pdf, ...names.map((n) => join(src, n))]);
    soffice(profile, ['--convert-to', 'docx:MS Word 2007 XML', '--outdir', srcDocx, ...names.map((n) => join(src, n))]);
    const pdfs = names.map((n) => join(pdf, n.replace(/\.\w+$/, '.pdf'))).filter(existsSync);
    if (opts.baseline)
      soffice(profile, [
        '--infilter=writer_pdf_import',
        '--convert-to',
        'docx:MS Word 2007 XML',
        '--outdir',
        base,
        ...pdfs,
      ]);
    const perDoc: WordDocScore[] = [];
    for (const p of pdfs) {
      const stem = basename(p, '.pdf');
      const source = docxContent(join(srcDocx, `${stem}.docx`));
      const ours = compareParagraphs(source, docxContent(await run('pdf-to-word', p)));
      const baseFile = join(base, `${stem}.docx`);
      const baseline =
        opts.baseline && existsSync(baseFile) ? compareParagraphs(source, docxContent(baseFile)) : undefined;
      perDoc.push({ doc: stem, ours, ...(baseline ? { baseline } : {}) });
    }
    const version = spawnSync('soffice', ['--version']).stdout?.toString().trim() ?? '';
    return {
      perDoc,
      ours: summarize(perDoc.map((d) => d.ours)),
      ...(opts.baseline ? { baseline: summarize(perDoc.flatMap((d) => (d.baseline ? [d.baseline] : []))) } : {}),
      soffice: version,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
