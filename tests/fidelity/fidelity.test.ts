/**
 * Fidelity floors for pdf-extract, measured on the shared corpus (see tests/lib/fidelity/measures.ts for the measures
 * and bench/fidelity.ts for the full report). Floors sit a little under what was measured, so a
 * change that makes extraction worse fails here.
 */
import { describe, expect, it } from 'vitest';
import { hasSoffice, measureTables, measureText, measureWord } from '../lib/fidelity/harness.ts';

// Measured last (bench/fidelity.ts gives the full report), strict measures: ICDAR 2013 mean
// per-document F1 0.951, all relations 0.952 (P 0.962, R 0.943), each found table assigned to one
// truth table; tabula and camelot expectations 0.82 mean F1; text character accuracy 0.993–1 and
// word F1 0.993–1; Word round trip over the 12 Writer documents, paragraphs matched one to one:
// P 0.995, R 1.0, F1 0.998; headings 26 right (all at the source's level), 0 invented, 0 missed; tables with
// text 5 -> 5, all 5 matched.
const TABLES_MEAN_F1_FLOOR = 0.946;
const TABLES_F1_FLOOR = 0.945;
const TABLES_P_FLOOR = 0.955;
const OTHERS_F1_FLOOR = 0.8;
const TWO_COLUMN_FLOOR = 0.99;
const WORD_F1_FLOOR = 0.99;
const PARAGRAPH_F1_FLOOR = 0.99;
const PARAGRAPH_P_FLOOR = 0.99;
const PARAGRAPH_R_FLOOR = 0.99;
const HEADINGS_INVENTED_CEILING = 0;
const HEADINGS_MISSED_CEILING = 0;
const TABLES_KEPT_FLOOR = 5;
const TABLES_INVENTED_CEILING = 0;

describe('tables: ICDAR 2013 cell adjacency', () => {
  it('keeps F1 over the competition set above its floor, and matches the tabula and camelot expectations', async () => {
    const r = await measureTables();
    expect(r.perDoc.length).toBeGreaterThanOrEqual(60);
    expect(r.meanF1).toBeGreaterThanOrEqual(TABLES_MEAN_F1_FLOOR);
    expect(r.overall.f1).toBeGreaterThanOrEqual(TABLES_F1_FLOOR);
    expect(r.overall.precision).toBeGreaterThanOrEqual(TABLES_P_FLOOR);
    const others = r.others.reduce((n, o) => n + o.f1, 0) / (r.others.length || 1);
    expect(others).toBeGreaterThanOrEqual(OTHERS_F1_FLOOR);
  }, 1_200_000);
});

describe('text: character accuracy and word F1 against the expected texts', () => {
  it('reads plain and two-column text, every word and in reading order', async () => {
    const r = await measureText();
    const by = Object.fromEntries(r.perDoc.map((d) => [d.doc, d.accuracy]));
    expect(by['textract-raw_text.pdf']).toBeGreaterThanOrEqual(0.99);
    expect(by['pdfplumber-scotus-transcript-p1.pdf']).toBeGreaterThanOrEqual(0.99);
    expect(by['textract-two_column.pdf']).toBeGreaterThanOrEqual(TWO_COLUMN_FLOOR);
    for (const d of r.perDoc) expect(d.wordF1, d.doc).toBeGreaterThanOrEqual(WORD_F1_FLOOR);
  }, 600_000);
});

describe.skipIf(!hasSoffice())('word: document -> PDF -> pdf-to-word round trip', () => {
  it('keeps paragraphs one to one, headings only where the source had them, tables, and uses no frames', async () => {
    const r = await measureWord({ baseline: true });
    expect(r.perDoc.length).toBeGreaterThanOrEqual(12);
    const o = r.ours;
    expect(o.paragraphs.f1).toBeGreaterThanOrEqual(PARAGRAPH_F1_FLOOR);
    expect(o.paragraphs.precision).toBeGreaterThanOrEqual(PARAGRAPH_P_FLOOR);
    expect(o.paragraphs.recall).toBeGreaterThanOrEqual(PARAGRAPH_R_FLOOR);
    expect(o.headings.invented).toBeLessThanOrEqual(HEADINGS_INVENTED_CEILING);
    expect(o.headings.missed).toBeLessThanOrEqual(HEADINGS_MISSED_CEILING);
    expect(o.tables.matched).toBeGreaterThanOrEqual(TABLES_KEPT_FLOOR);
    expect(o.tables.output - o.tables.matched).toBeLessThanOrEqual(TABLES_INVENTED_CEILING);
    expect(o.frames).toBe(0);
    const b = r.baseline!;
    expect(o.paragraphs.f1).toBeGreaterThan(b.paragraphs.f1);
    expect(o.headings.correct).toBeGreaterThan(b.headings.correct);
    expect(o.tables.matched).toBeGreaterThanOrEqual(b.tables.matched);
    expect(o.frames).toBeLessThan(b.frames);
  }, 1_200_000);
});
