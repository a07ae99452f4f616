import { describe, expect, it } from 'vitest';
import { call, elementText, officeParts, pdf } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';

const app = useExtract();

/** The body of the scanned table (read off the page): region, area, BMC, BMD. */
const truth = [
  ['L Arm', 197.82, 159.6, 0.807],
  ['R Arm', 211.89, 169.76, 0.801],
  ['L Ribs', 143.14, 98.66, 0.689],
  ['R Ribs', 134.29, 95.97, 0.715],
  ['T Spine', 148.77, 130.68, 0.878],
  ['L Spine', 47.04, 54.62, 1.161],
  ['Pelvis', 240.04, 307.24, 1.28],
  ['L Leg', 376.74, 485.63, 1.289],
  ['R Leg', 396.85, 494.3, 1.246],
  ['Subtotal', 1896.58, 1996.46, 1.053],
  ['Head', 234.81, 458.87, 1.954],
  ['Total', 2131.39, 2455.33, 1.152],
] as const;

/** A sheet's rows as cell values in column order: shared strings resolved, numbers as they are stored. */
function sheetRows(parts: Record<string, string>, sheet: string): string[][] {
  const shared = elementText(parts['xl/sharedStrings.xml'] ?? '', 't');
  return [...parts[sheet]!.matchAll(/<row [^>]*>([\s\S]*?)<\/row>/g)].map((row) =>
    [...row[1]!.matchAll(/<c r="[A-Z]+\d+"([^>]*?)(?:\/>|>(?:<v>([^<]*)<\/v>)?<\/c>)/g)].map(([, attrs, v]) =>
      / t="s"/.test(attrs!) ? shared[Number(v)]! : (v ?? ''),
    ),
  );
}

/** The share of the true cells found: a cell counts when the best row holding its region holds it too. */
function cellMatch(rows: string[][]): number {
  let matched = 0;
  for (const [region, ...numbers] of truth) {
    const found = rows
      .filter((r) => r.includes(region))
      .map((r) => 1 + numbers.filter((n) => r.some((c) => Number(c) === n)).length);
    matched += Math.max(0, ...found);
  }
  return matched / (truth.length * 4);
}

describe('pdf-to-excel reads a scanned table by OCR', () => {
  it('gives a table sheet whose cells hold the recognised text', async () => {
    const a = await call(app(), 'pdf-to-excel', pdf('camelot-image-scanned-table.pdf'));
    expect(a.status).toBe(200);
    expect(a.properties).toMatchObject({ scannedPages: [1], ocrPages: [1] });
    expect(a.properties.tables).toBeGreaterThanOrEqual(1);
    const parts = officeParts(a.file!);
    expect(parts['xl/workbook.xml']).toMatch(/name="Page 1 table 1"/);
    const sheets = Object.keys(parts).filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n));
    // The sheet of the table: the one most of the true cells are found in.
    const share = Math.max(...sheets.map((n) => cellMatch(sheetRows(parts, n))));
    // Measured 47 of 48: the last row's BMD is read "1,152" and joined to the Z-score beside it.
    expect(share).toBeGreaterThanOrEqual(0.95);
  }, 60_000);
});
