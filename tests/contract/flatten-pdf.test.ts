import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { runTool } from '../lib/http.ts';
import { pageCount } from '../lib/pdf.ts';

const form = join(corpusDir, 'pdf', 'qpdf-sample-form.pdf');
const encrypted = join(corpusDir, 'pdf-encrypted', 'qpdf-20-pages-user-owner.pdf');

const fieldCount = (file: string) =>
  (
    JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=acroform', file]).toString()) as {
      acroform: { fields: unknown[] };
    }
  ).acroform.fields.length;
const shown = (file: string, password?: string) =>
  execFileSync('pdftotext', [...(password ? ['-upw', password] : []), file, '-']).toString();

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('flatten-pdf', () => {
  it('burns the form into its pages through nginx and the gateway: no field left, its values on the page', async () => {
    const { path, res } = await runTool(base, 'flatten-pdf', [form]);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(fieldCount(form)).toBeGreaterThan(0);
    expect(fieldCount(path)).toBe(0);
    expect(pageCount(path)).toBe(1);
    for (const word of ['ABC', 'DEF', 'Given', 'Name:']) expect(shown(path)).toContain(word);
  });

  it('opens an encrypted PDF with its password', async () => {
    const { path } = await runTool(base, 'flatten-pdf', [encrypted], { password: 'user' });
    expect(pageCount(path)).toBe(20);
    expect(shown(path)).toBe(shown(encrypted, 'user'));
  });
});
