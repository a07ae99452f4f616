/**
 * Fidelity floors for pdf-extract, measured on the shared corpus (see tests/lib/fidelity/measures.ts for the measures
 * and bench/fidelity.ts for the full report). Floors sit a little under what was measured, so a
 * change that makes extraction worse fails here.
 */
import { describe, expect, it } from 'vitest';
import { hasSoffice, measureTables, measureText, measureWord } from '../lib/fidelity/harness.ts';

// Measured last (bench/fidelity.ts gives the full report): ICDAR F1 0.937 (P 0.948, R 0.926);
// tabula and camelot expectations 0.82 mean F1; two-column text 0.993; Word round trip paragraph
// F1 0.995 against LibreOffice PDF import's 0.956, headings 26/26 against 0/26.
const TABLES_F1_FLOOR = 0.92;
const TABLES_P_FLOOR = 0.93;
const OTHERS_F1_FLOOR = 0.8;
const TWO_COLUMN_FLOOR = 0.99;
const WORD_F1_FLOOR = 0.97;

describe('tables: ICDAR 2013 cell adjacency', () => {
  it('keeps F1 over the competition set above its floor, and matches the tabula and camelot expectations', async () => {
    const r = await measureTables();
    expect(r.perDoc.length).toBeGreaterThanOrEqual(60);
    expect(r.overall.f1).toBeGreaterThanOrEqual(TABLES_F1_FLOOR);
    expect(r.overall.precision).toBeGreaterThanOrEqual(TABLES_P_FLOOR);
    const others = r.others.reduce((n, o) => n + o.f1, 0) / (r.others.length || 1);
    expect(others).toBeGreaterThanOrEqual(OTHERS_F1_FLOOR);
  }, 1_200_000);
});

describe('text: character accuracy against the expected texts', () => {
  it('reads plain and two-column text', async () => {
    const r = await measureText();
    const by = Object.fromEntries(r.perDoc.map((d) => [d.doc, d.accuracy]));
    expect(by['textract-raw_text.pdf']).toBeGreaterThanOrEqual(0.99);
    expect(by['pdfplumber-scotus-transcript-p1.pdf']).toBeGreaterThanOrEqual(0.99);
    expect(by['textract-two_column.pdf']).toBeGreaterThanOrEqual(TWO_COLUMN_FLOOR);
  }, 600_000);
});

describe.skipIf(!hasSoffice())('word: document -> PDF -> pdf-to-word round trip', () => {
  it('keeps paragraphs and headings, uses no frames, and beats LibreOffice PDF import on every measure', async () => {
    const r = await measureWord({ baseline: true });
    expect(r.perDoc.length).toBeGreaterThanOrEqual(5);
    expect(r.ours.paragraphF1).toBeGreaterThanOrEqual(WORD_F1_FLOOR);
    expect(r.ours.frames).toBe(0);
    const b = r.baseline!;
    expect(r.ours.paragraphF1).toBeGreaterThan(b.paragraphF1);
    expect(r.ours.headingsFound).toBeGreaterThan(b.headingsFound);
    expect(r.ours.tablesFound).toBeGreaterThanOrEqual(b.tablesFound);
    expect(r.ours.frames).toBeLessThan(b.frames);
  }, 1_200_000);
});
