import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { csvTable, xlsxTables, type GridCell } from '../lib/fidelity/measures.ts';
import { post, runTool } from '../lib/http.ts';

const pdf = (name: string) => join(corpusDir, 'pdf', name);
const columns = pdf('pypdf-multicolumn.pdf');

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

const run = (tool: string, files: string[], fields: Record<string, string> = {}) => runTool(base, tool, files, fields);

/** One part of an Office package, read with Python's zipfile (every part must parse as XML). */
function part(file: string, name: string): string {
  const py =
    'import sys, zipfile, xml.etree.ElementTree as ET\nz = zipfile.ZipFile(sys.argv[1])\nd = z.read(sys.argv[2])\nET.fromstring(d)\nsys.stdout.write(d.decode("utf-8"))';
  return execFileSync('python3', ['-c', py, file, name], { maxBuffer: 64 * 1024 * 1024 }).toString();
}

function names(file: string): string[] {
  const py = 'import sys, zipfile\nprint("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))';
  return execFileSync('python3', ['-c', py, file]).toString().trim().split('\n');
}

describe('pdf-to-word', () => {
  it('makes an editable DOCX: headings, flowing paragraphs, no text boxes', async () => {
    const { path, res, download: name } = await run('pdf-to-word', [columns]);
    expect(name).toMatch(/^[0-9a-f]{32}-.+\.docx$/);
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const doc = part(path, 'word/document.xml');
    expect(doc).toMatch(/<w:pStyle w:val="Heading1"\/>/);
    expect(doc).toContain('Two-Column Document with Lorem Ipsum');
    expect(doc).not.toMatch(/<w:txbxContent|<w:framePr/);
  });

  it('opens encrypted PDFs with their password and asks for it otherwise', async () => {
    const file = join(corpusDir, 'pdf-encrypted', 'pdfminer-aes-256.pdf');
    const none = await post(`${base}/api.php?tool=pdf-to-word`, [file]);
    expect(none.status).toBe(400);
    expect(none.body.error?.code).toBe('password_required');
    const wrong = await post(`${base}/api.php?tool=pdf-to-word`, [file], { password: 'nope' });
    expect(wrong.body.error?.code).toBe('wrong_password');
    const { path } = await run('pdf-to-word', [file], { password: 'baz' });
    expect(part(path, 'word/document.xml')).toMatch(/<w:t[ >]/);
  });
});

describe('pdf-to-text', () => {
  it('gives plain text by default and Markdown on request', async () => {
    const txt = await run('pdf-to-text', [columns]);
    expect(txt.download).toMatch(/\.txt$/);
    expect(txt.res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(readFileSync(txt.path, 'utf8')).toContain('Two-Column Document with Lorem Ipsum');
    const md = await run('pdf-to-text', [columns], { format: 'md' });
    expect(md.download).toMatch(/\.md$/);
    expect(readFileSync(md.path, 'utf8')).toMatch(/^# Two-Column Document with Lorem Ipsum$/m);
  });

  it('reads a page set in three columns as text, column by column, and keeps real tables as tables', async () => {
    const { path } = await run('pdf-to-text', [pdf('pdfplumber-federal-register-2020-17221.pdf')], { format: 'md' });
    const md = readFileSync(path, 'utf8');
    const pages = md.split('\n\n---\n\n');
    expect(pages.length).toBeGreaterThanOrEqual(14);
    const tableRows = (page: string) => page.split('\n').filter((l) => /^\|.*\|$/.test(l));
    // Only the pages with the cost estimates hold a table; the others are prose in three columns.
    const withTables = pages.filter((p) => p.includes('ESTIMATED COSTS'));
    expect(withTables).toHaveLength(2);
    for (const p of pages.filter((x) => !withTables.includes(x))) expect(tableRows(p)).toEqual([]);
    for (const p of withTables) expect(tableRows(p).some((l) => /Labor cost.*Parts cost/.test(l))).toBe(true);
    // Paragraphs of a column come out whole, each one line of Markdown, in the column's order.
    // Headings as whatever the document's sizes make them: a heading or a bold line.
    const lines = md.split('\n').map((l) => l.replace(/^#+ /, '').replace(/^\*\*(.*)\*\*$/, '$1'));
    const paragraphs = [
      'This service information is reasonably available because the information is posted in the docket and because the interested parties otherwise have access to it through their normal course of business or by the means identified in the **ADDRESSES** section.',
      'FAA’s Determination',
      'The FAA is proposing this AD because the agency evaluated all the relevant information and determined the unsafe condition described previously is likely to exist or develop in other products of the same type design.',
      'Proposed AD Requirements',
    ];
    const at = paragraphs.map((p) => lines.indexOf(p));
    expect(
      at.every((i) => i >= 0),
      JSON.stringify(at),
    ).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(md).toMatch(
      /^Hatta International Airport in Jakarta, Indonesia, resulting in 189 fatalities\. Investigation of the accident has been completed by the Indonesian authorities \(Komite Nasional Keselamatan Transportasi \(KNKT\)\) with assistance from the National Transportation Safety Board/m,
    );
  });

  it('refuses a format it does not know, naming the field', async () => {
    const r = await post(`${base}/api.php?tool=pdf-to-text`, [columns], { format: 'doc' });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_option');
    expect(r.body.error?.message).toContain('format');
  });
});

describe('pdf-to-excel', () => {
  it('puts a ruled table on a sheet named by its page, numbers as numbers', async () => {
    const { path, download: name } = await run('pdf-to-excel', [join(corpusDir, 'tables/camelot/column_span_2.pdf')]);
    expect(name).toMatch(/\.xlsx$/);
    expect(part(path, 'xl/workbook.xml')).toMatch(/name="Page 1 table 1"/);
    expect(part(path, 'xl/worksheets/sheet1.xml')).toMatch(/<mergeCell /);
  });

  it('keeps a header set over two rows as cells in their rows and columns, and the figures as numbers', async () => {
    const dir = join(corpusDir, 'tables/camelot');
    const { path } = await run('pdf-to-excel', [join(dir, 'health.pdf')]);
    const [table, ...others] = await xlsxTables(path);
    expect(others).toHaveLength(0);
    const at = (r: number, c: number) => table!.cells.find((x) => x.sr === r && x.sc === c);
    const cell = (x: GridCell | undefined) => x && [x.text, x.er - x.sr + 1, x.ec - x.sc + 1];
    // As the page shows it: a group's heading over two columns, its two headings under it, and the
    // headings beside the groups spanning both rows (text, rows, columns).
    const header = [
      [1, 1, 'States-A', 2, 1],
      [1, 2, 'Revenue', 1, 2],
      [1, 4, 'Capital', 1, 2],
      [1, 6, 'Total Revenue & Capital', 2, 1],
      [1, 7, 'Others(1)', 2, 1],
      [1, 8, 'Total', 2, 1],
      [2, 2, 'Medical & Public Health', 1, 1],
      [2, 3, 'Family Welfare', 1, 1],
      [2, 4, 'Medical & Public Health', 1, 1],
      [2, 5, 'Family Welfare', 1, 1],
    ] as const;
    for (const [r, c, text, rows, cols] of header) expect(cell(at(r, c)), `${r}:${c}`).toEqual([text, rows, cols]);
    expect(table!.cells.filter((x) => x.sr <= 2)).toHaveLength(header.length);
    // The rows under the header are the ground truth's, cell for cell, the title left out.
    const truth = csvTable(readFileSync(join(dir, 'derived-csv/health.csv'), 'utf8')).cells.filter((x) => x.sr >= 6);
    // The CSV counts from 0 with six header lines; the sheet from 1 with two header rows.
    expect(Math.max(...table!.cells.map((x) => x.sr))).toBe(Math.max(...truth.map((x) => x.sr)) - 3);
    for (const t of truth.filter((x) => x.text)) expect(at(t.sr - 3, t.sc + 1)?.text, `${t.sr}:${t.sc}`).toBe(t.text);
    // Figures are numbers in the sheet, shown with their thousands separators.
    const sheet = part(path, 'xl/worksheets/sheet1.xml');
    expect(sheet).toMatch(/<c r="B3"[^>]*><v>47824589<\/v>/);
    expect(sheet).not.toMatch(/Public Health Outlay/);
  });
});

describe('pdf-to-ppt', () => {
  it('makes one slide per page', async () => {
    const { path, download: name } = await run('pdf-to-ppt', [pdf('pypdf-pdflatex-4-pages.pdf')]);
    expect(name).toMatch(/\.pptx$/);
    expect(names(path).filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))).toHaveLength(4);
  });
});

describe('pdf-to-html', () => {
  it('makes one self-contained page with semantic headings', async () => {
    const { path, res } = await run('pdf-to-html', [pdf('pypdf-pdflatex-image.pdf')]);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = readFileSync(path, 'utf8');
    expect(html).toMatch(/<img src="data:image\/png;base64,/);
    expect(html).not.toMatch(/src="(?!data:)/);
  });
});
