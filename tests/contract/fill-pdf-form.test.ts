import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck } from '../lib/pdf.ts';

const form = join(corpusDir, 'pdf', 'pypdf-libreoffice-form.pdf');
const irs = join(corpusDir, 'pdf', 'pdfminer-f1040nr-irs-form.pdf');

const shown = (file: string) => execFileSync('pdftotext', [file, '-']).toString();
/** The form's fields as qpdf reads them: full name and value. */
const fields = (file: string) =>
  (
    JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=acroform', file]).toString()) as {
      acroform: { fields: { fullname: string; value: unknown }[] };
    }
  ).acroform.fields;

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('fill-pdf-form', () => {
  it('fills the fields from JSON through nginx and the gateway, each holding and showing its value', async () => {
    const values = { 'Last Name': 'Xylophone', gdpr: true, Nationality: 'French', female: '2' };
    const { path, res } = await runTool(base, 'fill-pdf-form', [form], { values: JSON.stringify(values) });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect([0, 3]).toContain(qpdfCheck(path));
    expect(pageCount(path)).toBe(1);
    const held = new Map(fields(path).map((f) => [f.fullname, f.value]));
    expect(held.get('Last Name')).toBe('u:Xylophone');
    expect(held.get('gdpr')).toMatch(/^\/(?!Off)/);
    expect(held.get('Nationality')).toBe('u:French');
    expect(shown(path)).toContain('Xylophone');
  });

  it('fills and flattens a large government form: no field left, the value on the page', async () => {
    const values = { 'f1_001(0)': 'Wolfgang', 'c1_01(0)': true };
    const { path } = await runTool(base, 'fill-pdf-form', [irs], { values: JSON.stringify(values), flatten: 'true' });
    expect(pageCount(path)).toBe(5);
    expect(fields(path)).toEqual([]);
    expect(shown(path)).toContain('Wolfgang');
  });

  it('refuses a value its field cannot take with a 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['{"gdpr":"maybe"}', 'gdpr'],
      ['{"Nationality":"Martian"}', 'Nationality'],
      ['{"Nobody":"x"}', 'Nobody'],
      ['{"Last Name":', 'values'],
    ];
    for (const [values, field] of cases) {
      const r = await post(`${base}/api/v1/tools/fill-pdf-form`, [form], { values });
      expect(r.status, values).toBe(400);
      expect(r.body.error?.code, values).toBe('invalid_option');
      expect(r.body.error?.message, values).toContain(`"${field}"`);
    }
  });
});
