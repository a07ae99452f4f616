import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, type PDFField } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { encrypted, pages, pdf, scratch, text, useEditor } from '../../../test/helpers.ts';
import { differingShare, render } from '../../../test/render.ts';

const { call } = useEditor();

/** The form's fields by name, read back by pdf-lib. */
async function fields(file: string): Promise<Map<string, PDFField>> {
  const doc = await PDFDocument.load(readFileSync(file), { ignoreEncryption: true });
  return new Map(
    doc
      .getForm()
      .getFields()
      .map((f) => [f.getName(), f]),
  );
}

/** The fields qpdf finds, none in a flattened file. */
const qpdfFields = (file: string) =>
  (
    JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=acroform', file]).toString()) as {
      acroform: { fields: unknown[] };
    }
  ).acroform.fields.length;

const libreoffice = pdf('pypdf-libreoffice-form.pdf');
const filled = {
  'Last Name': 'Xylophone',
  Birthday: '1990-04-12',
  female: '2',
  gdpr: true,
  other: false,
  Nationality: 'French',
};

describe('fill-pdf-form', () => {
  it('puts each value in its field, and shows it on the page', async () => {
    const r = await call('fill-pdf-form', [libreoffice], { values: JSON.stringify(filled) });
    expect(r.status, r.error?.message).toBe(200);
    expect(pages(r.file)).toBe(1);
    const read = await fields(r.file);
    expect((read.get('Last Name') as unknown as { getText(): string }).getText()).toBe('Xylophone');
    expect((read.get('gdpr') as unknown as { isChecked(): boolean }).isChecked()).toBe(true);
    expect((read.get('Nationality') as unknown as { getSelected(): string[] }).getSelected()).toEqual(['French']);
    expect((read.get('female') as unknown as { getSelected(): string }).getSelected()).toBe('2');
    // Untouched fields keep their values.
    expect((read.get('First Name') as unknown as { getText(): string }).getText()).toBe('Alice');
    const shown = text(r.file);
    for (const word of ['Xylophone', '1990-04-12', 'French', 'Alice']) expect(shown).toContain(word);
    expect(r.props).toMatchObject({ pages: 1, filled: 6, flattened: false });
  });

  it('fills the corpus forms, each value shown where a reader draws it', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['qpdf-sample-form.pdf', { 'Given Name Text Box': 'Zébulon', 'Country Combo Box': 'Malta' }, 'Zébulon'],
      ['pypdf-pdflatex-forms.pdf', { Name: 'Quintessa', Check: true }, 'Quintessa'],
      ['pdfminer-f1040nr-irs-form.pdf', { 'f1_001(0)': 'Wolfgang', 'c1_01(0)': true }, 'Wolfgang'],
    ];
    for (const [file, values, word] of cases) {
      const source = pdf(file);
      const r = await call('fill-pdf-form', [source], { values: JSON.stringify(values) });
      expect(r.status, `${file}: ${r.error?.message}`).toBe(200);
      expect(pages(r.file)).toBe(pages(source));
      expect(text(r.file)).toContain(word);
      expect(qpdfFields(r.file)).toBe(qpdfFields(source));
    }
  });

  it('flattens when asked: no field left, and the page looks as the filled one', async () => {
    const values = JSON.stringify(filled);
    const kept = await call('fill-pdf-form', [libreoffice], { values });
    const flat = await call('fill-pdf-form', [libreoffice], { values, flatten: 'true' });
    expect(flat.status, flat.error?.message).toBe(200);
    expect(qpdfFields(kept.file)).toBeGreaterThan(0);
    expect(qpdfFields(flat.file)).toBe(0);
    expect(text(flat.file)).toContain('Xylophone');
    expect(differingShare(render(kept.file, 1, 72), render(flat.file, 1, 72))).toBeLessThan(0.002);
    expect(flat.props).toMatchObject({ flattened: true });
  });

  it('returns a PDF without a form as it is when no field is named, and needs the values', async () => {
    const source = pdf('pdfplumber-pdffill-demo.pdf');
    const none = await call('fill-pdf-form', [source]);
    expect(none.error).toMatchObject({ code: 'invalid_option', message: 'The option "values" is required.' });
    const r = await call('fill-pdf-form', [source], { values: '{}' });
    expect(r.status, r.error?.message).toBe(200);
    expect(pages(r.file)).toBe(pages(source));
    expect(text(r.file)).toBe(text(source));
    const named = await call('fill-pdf-form', [source], { values: '{"Name":"x"}' });
    expect(named.error).toMatchObject({
      code: 'invalid_option',
      message: expect.stringMatching(/"Name".*no form fields/),
    });
  });

  it('opens an encrypted form with its password', async () => {
    const locked = join(scratch, 'locked-form.pdf');
    execFileSync('qpdf', ['--encrypt', 'secret', 'owner', '256', '--', libreoffice, locked]);
    const r = await call('fill-pdf-form', [locked], { values: '{"Last Name":"Xylophone"}', password: 'secret' });
    expect(r.status, r.error?.message).toBe(200);
    expect(encrypted(r.file)).toBe(false);
    expect(text(r.file)).toContain('Xylophone');
    const wrong = await call('fill-pdf-form', [locked], { values: '{}', password: 'nope' });
    expect(wrong.error?.code).toBe('wrong_password');
  });

  it('refuses a value its field cannot take, naming the field', async () => {
    const cases: [string, RegExp][] = [
      ['{"Surname":"x"}', /field "Surname" is not in this form; its fields are "First Name"/],
      ['{"gdpr":"maybe"}', /field "gdpr" is a check box: give it true, false or "/],
      ['{"gdpr":3}', /field "gdpr" is a check box/],
      ['{"Nationality":"Martian"}', /field "Nationality" has no option "Martian"; its options are "Unknown"/],
      ['{"Nationality":["French","German"]}', /field "Nationality" takes one option only/],
      ['{"female":"3"}', /field "female" is a radio group: give it one of "1", "2"/],
      ['{"Last Name":true}', /field "Last Name" is a text field/],
      ['{"Last Name":"Ωmega"}', /field "Last Name" holds characters/],
      ['{"Last Name":{"a":1}}', /field "Last Name" must be given text/],
      ['{"Last Name":', /"values".*JSON/],
      ['["Last Name"]', /"values".*object/],
    ];
    for (const [values, message] of cases) {
      const r = await call('fill-pdf-form', [libreoffice], { values });
      expect(r.status, values).toBe(400);
      expect(r.error, values).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(message) });
    }
  });
});
