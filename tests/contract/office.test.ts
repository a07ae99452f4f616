/**
 * Word, Excel and PowerPoint to PDF through the whole stack (nginx, gateway, office service).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { download, post, runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck, text, words } from '../lib/pdf.ts';

const office = (name: string) => join(corpusDir, 'office', name);

let base: string;
const scratch = mkdtempSync(join(tmpdir(), 'office-contract-'));
beforeAll(() => {
  base = inject('baseUrl');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (tool: string, files: string[], fields: Record<string, string> = {}) => runTool(base, tool, files, fields);

/** Whether a phrase appears in a text, ignoring case, punctuation and layout. */
const says = (path: string, phrase: string) =>
  words(text(path).toLowerCase()).join(' ').includes(words(phrase.toLowerCase()).join(' '));

describe('word-to-pdf', () => {
  it.each([
    ['textract-paragraphs_and_tables.docx', 1, 'This is the paragraph before the table'],
    ['jod-test.odt', 1, 'Test document'],
    ['jod-test.rtf', 1, 'Test document'],
    ['gotenberg-pages_12.docx', 12, 'Page 12'],
  ])('converts %s, keeping its pages and text', async (file, pages, phrase) => {
    const { path, res, download: name, properties } = await run('word-to-pdf', [office(file)]);
    expect(name).toMatch(new RegExp(`^[0-9a-f]{32}-${file.replace(/\.[^.]+$/, '').replace(/[.]/g, '\\.')}\\.pdf$`));
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(qpdfCheck(path)).toBe(0);
    expect(pageCount(path)).toBe(pages);
    expect(properties.pages).toBe(pages);
    expect(says(path, phrase)).toBe(true);
  });

  it('converts a Word 97-2003 .doc (judged by its OLE2 streams)', async () => {
    const { path } = await run('word-to-pdf', [office('textract-raw_text.doc')]);
    expect(says(path, 'I love word documents')).toBe(true);
  });

  it('asks for the password of a protected document, opens it with the right one, and refuses a wrong one', async () => {
    const locked = office('gotenberg-protected_page_1.docx');
    const none = await post(`${base}/api.php?tool=word-to-pdf`, [locked]);
    expect(none.status).toBe(400);
    expect(none.body.error?.code).toBe('password_required');
    const wrong = await post(`${base}/api.php?tool=word-to-pdf`, [locked], { password: 'bar' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.code).toBe('wrong_password');
    const { path } = await run('word-to-pdf', [locked], { password: 'foo' });
    expect(pageCount(path)).toBe(1);
    expect(says(path, 'Page 1')).toBe(true);
    const odt = await post(`${base}/api.php?tool=word-to-pdf`, [office('jod-test_password.odt')]);
    expect(odt.status).toBe(400);
    expect(odt.body.error?.code).toBe('password_required');
    expect(odt.body.error?.message).toMatch(/password/i);
  });

  it('refuses what is not a text document, judged by content', async () => {
    const sheet = await post(`${base}/api.php?tool=word-to-pdf`, [office('jod-test.xlsx')]);
    expect(sheet.status).toBe(415);
    expect(sheet.body.error?.code).toBe('unsupported_type');
    const fake = join(scratch, 'letter.docx');
    writeFileSync(fake, 'Dear reader, this is not a Word file.\n');
    const r = await post(`${base}/api.php?tool=word-to-pdf`, [fake]);
    expect(r.status).toBe(415);
    expect(r.body.error?.code).toBe('unsupported_type');
  });
});

describe('excel-to-pdf', () => {
  it.each([
    ['jod-test.xlsx', 'Test spreadsheet'],
    ['jod-test.ods', 'Test spreadsheet'],
    ['jod-test.xls', 'Test spreadsheet'],
  ])('converts %s', async (file, phrase) => {
    const { path } = await run('excel-to-pdf', [office(file)]);
    expect(pageCount(path)).toBe(1);
    expect(says(path, phrase)).toBe(true);
  });

  it('converts a CSV, printing every value as written', async () => {
    const csv = join(scratch, 'prices.csv');
    writeFileSync(csv, 'item;code;price\nApples;007;1.50\nPears;0012;=1+1\n');
    const { path, download: name } = await run('excel-to-pdf', [csv]);
    expect(name).toMatch(/-prices\.pdf$/);
    const t = text(path);
    for (const v of ['Apples', '007', '1.50', '0012', '=1+1']) expect(t).toContain(v);
  });
});

describe('ppt-to-pdf', () => {
  it.each([
    ['textract-raw_text.pptx', 'I love PowerPoint'],
    ['jod-test.odp', 'Test presentation'],
    ['jod-test.ppt', 'Test presentation'],
    ['gotenberg-slideshow.ppsx', 'PowerPoint Show'],
  ])('converts %s', async (file, phrase) => {
    const { path } = await run('ppt-to-pdf', [office(file)]);
    expect(pageCount(path)).toBeGreaterThanOrEqual(1);
    expect(says(path, phrase)).toBe(true);
  });
});

describe('office steps in a workflow', () => {
  it('chains word-to-pdf into PDF tools', async () => {
    const r = await post(`${base}/api.php?workflow=custom&steps=word-to-pdf,rotate-pdf`, [
      office('gotenberg-pages_12.docx'),
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { path } = await download(base, r.body.download!);
    expect(pageCount(path)).toBe(12);
    expect(says(path, 'Page 7')).toBe(true);
  });
});
