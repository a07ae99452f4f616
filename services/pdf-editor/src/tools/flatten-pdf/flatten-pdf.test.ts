import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus, encrypted, pages, pdf, pool, text } from '../../../test/helpers.ts';
import { useEditor } from '../../../test/helpers.ts';
import { differingShare, render } from '../../../test/render.ts';

const { call } = useEditor();

/** qpdf's account of a file's form and of each page's annotations. */
function annotations(file: string, password?: string): { fields: number; annots: number } {
  const pw = password ? [`--password=${password}`] : [];
  const json = JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=acroform', ...pw, file]).toString()) as {
    acroform: { fields: unknown[] };
  };
  const qdf = execFileSync('qpdf', [...pw, '--qdf', '--object-streams=disable', file, '-']).toString('latin1');
  return {
    fields: json.acroform.fields.length,
    annots: (qdf.match(/\/Subtype \/(?!Type1|Image|Form|XML|TrueType|Type0|CIDFontType|Type3)\w+/g) ?? []).length,
  };
}

/** Each page looks as it did: few pixels differ. */
function looksSame(a: string, b: string, password?: string): void {
  for (let p = 1; p <= Math.min(pages(a), 3); p++) {
    const before = password ? render(decrypt(a, password), p, 60) : render(a, p, 60);
    expect(differingShare(before, render(b, p, 60)), `page ${p}`).toBeLessThan(0.003);
  }
}

const decrypt = (file: string, password: string) => {
  const out = `${file}.plain.pdf`;
  execFileSync('qpdf', [`--password=${password}`, '--decrypt', file, out]);
  return out;
};

describe('flatten-pdf', () => {
  it('burns a form into its pages: no field left, the same look and words', async () => {
    for (const name of ['pypdf-libreoffice-form.pdf', 'qpdf-sample-form.pdf', 'pypdf-pdflatex-forms.pdf']) {
      const source = pdf(name);
      const r = await call('flatten-pdf', [source]);
      expect(r.status, `${name}: ${r.error?.message}`).toBe(200);
      expect(annotations(source).fields, name).toBeGreaterThan(0);
      expect(annotations(r.file).fields, name).toBe(0);
      expect(pages(r.file)).toBe(pages(source));
      looksSame(source, r.file);
      expect(r.props.fields).toBeGreaterThan(0);
    }
    const libreoffice = await call('flatten-pdf', [pdf('pypdf-libreoffice-form.pdf')]);
    expect(text(libreoffice.file)).toContain('Alice');
  });

  it('burns in the comments that have a look, and keeps those a reader draws itself', async () => {
    const source = pdf('pypdf-annotated.pdf'); // a note, a highlight and ink, none with an appearance stream
    const r = await call('flatten-pdf', [source]);
    expect(r.status, r.error?.message).toBe(200);
    looksSame(source, r.file);
    expect(annotations(r.file).annots).toBe(annotations(source).annots);
    // A filled form, flattened: its fields are drawn into the page, where no reader can change them.
    const form = pdf('pdfminer-f1040nr-irs-form.pdf');
    const flat = await call('flatten-pdf', [form]);
    expect(flat.status, flat.error?.message).toBe(200);
    expect(annotations(flat.file).fields).toBe(0);
    expect(annotations(flat.file).annots).toBeLessThan(annotations(form).annots);
    expect(pages(flat.file)).toBe(5);
  });

  it('opens an encrypted input with its password', async () => {
    const source = join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf');
    const r = await call('flatten-pdf', [source], { password: 'user' });
    expect(r.status, r.error?.message).toBe(200);
    expect(encrypted(r.file)).toBe(false);
    expect(text(r.file, 3)).toBe(text(source, 3, 'user'));
    const locked = await call('flatten-pdf', [source]);
    expect(locked.error?.code).toBe('password_required');
  });

  it('flattens other documents without losing a page, a word or the look', async () => {
    const files = [
      'pypdf-pdflatex-outline.pdf',
      'pdfplumber-federal-register-2020-17221.pdf',
      'pdfplumber-pdffill-demo.pdf',
      'qpdf-11-pages.pdf',
      'qpdf-rotated-20-pages.pdf',
    ];
    await pool(files, 2, async (name) => {
      const source = pdf(name);
      const r = await call('flatten-pdf', [source]);
      expect(r.status, `${name}: ${r.error?.message}`).toBe(200);
      expect(pages(r.file), name).toBe(pages(source));
      looksSame(source, r.file);
    });
  });
});
