import ExcelJS from 'exceljs';
import type { DocLayout, Table } from '../layout/types.ts';
import { wholeTables } from '../layout/table-runs.ts';
import { cellMap, emptyRows } from './common.ts';

/** A cell's text as a number when it is one: thousands separators, currency, percent, (negatives). */
export function parseNumber(text: string): { value: number; format?: string } | undefined {
  const t = text.trim().replace(/[\u2212\u2013]/g, '-');
  if (!t || t.length > 30) return undefined;
  const m = /^(\()?([-+])?\s*([$€£¥])?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(%)?(\))?$/.exec(t);
  if (!m) return undefined;
  const [, open, sign, currency, int, frac, pct, close] = m;
  if (Boolean(open) !== Boolean(close)) return undefined;
  // Leading zeros mean a code ("007", "0123"), not a quantity.
  if (/^0\d/.test(int!) && !frac) return undefined;
  let value = Number(int!.replace(/,/g, '') + (frac ?? ''));
  if (!Number.isFinite(value)) return undefined;
  if (sign === '-' || open) value = -value;
  const decimals = frac ? frac.length - 1 : 0;
  const base = `${int!.includes(',') ? '#,##0' : '0'}${decimals ? '.' + '0'.repeat(decimals) : ''}`;
  if (pct) return { value: value / 100, format: `${base}%` };
  if (currency) return { value, format: `"${currency}"${base}` };
  if (int!.includes(',') || decimals) return { value, format: base };
  return { value };
}

function sheetName(base: string, used: Set<string>): string {
  let name = base.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31);
  let k = 2;
  while (used.has(name.toLowerCase())) name = `${base.slice(0, 27)} (${k++})`;
  used.add(name.toLowerCase());
  return name;
}

function addTable(ws: ExcelJS.Worksheet, t: Table): void {
  const { start } = cellMap(t);
  const skip = emptyRows(t);
  const rowIndex = new Map<number, number>();
  let n = 0;
  for (let r = 0; r < t.rows; r++) if (!skip.has(r)) rowIndex.set(r, ++n);
  const widths = new Array<number>(t.cols).fill(8);
  for (const [key, cell] of start) {
    const [r, c] = key.split(':').map(Number) as [number, number];
    const row = rowIndex.get(r);
    if (row === undefined) continue;
    const target = ws.getCell(row, c + 1);
    const num = parseNumber(cell.text);
    if (num) {
      target.value = num.value;
      if (num.format) target.numFmt = num.format;
    } else if (cell.text) target.value = cell.text;
    target.alignment = { vertical: 'top', wrapText: cell.text.length > 40 };
    if (cell.colSpan === 1) widths[c] = Math.max(widths[c]!, Math.min(60, cell.text.length + 2));
    const lastRow =
      [...Array(cell.rowSpan).keys()]
        .map((k) => rowIndex.get(r + k))
        .filter((x): x is number => x !== undefined)
        .pop() ?? row;
    if (cell.colSpan > 1 || lastRow > row) {
      try {
        ws.mergeCells(row, c + 1, lastRow, c + cell.colSpan);
      } catch {
        /* overlapping spans from a damaged grid: keep the value unmerged */
      }
    }
  }
  widths.forEach((w, i) => (ws.getColumn(i + 1).width = w));
}

/**
 * One sheet per table (one a page break cut joined whole), named by the page it starts on ("Page 1
 * table 2"), merged cells where the table merges them, numbers as numbers. A document without tables gets its pages' text lines, so it is never empty.
 */
export async function writeXlsx(doc: DocLayout, path: string): Promise<{ sheets: number; tables: number }> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Quire';
  const used = new Set<string>();
  let tables = 0;
  const perPage = new Map<number, number>();
  for (const { page, table } of wholeTables(doc.pages)) {
    const k = (perPage.get(page.number) ?? 0) + 1;
    perPage.set(page.number, k);
    tables++;
    addTable(wb.addWorksheet(sheetName(`Page ${page.number} table ${k}`, used)), table);
  }
  if (!tables) {
    for (const page of doc.pages) {
      const lines = page.blocks.flatMap((b) => (b.kind === 'para' ? b.lines.map((l) => l.text) : []));
      if (!lines.length) continue;
      const ws = wb.addWorksheet(sheetName(`Page ${page.number}`, used));
      ws.getColumn(1).width = 100;
      for (const line of lines) ws.addRow([line]);
    }
    if (!wb.worksheets.length) {
      const ws = wb.addWorksheet('Page 1');
      ws.addRow(['No text was found in this PDF (scanned pages are images; no OCR).']);
    }
  }
  await wb.xlsx.writeFile(path);
  return { sheets: wb.worksheets.length, tables };
}
