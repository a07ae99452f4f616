/**
 * fill-pdf-form's form filler: a real PDF form's fields listed by pdf.js as the page's own controls,
 * filled with the keyboard (and on a phone by tapping), written to the values JSON; the tool's result holds
 * each value. The filler passes axe.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser } from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { pageCount, text } from '../lib/pdf.ts';
import { downloadResult, settledStatus } from './site.ts';

const site = useBrowser();
const form = join(corpusDir, 'pdf', 'pypdf-libreoffice-form.pdf');

/** Each field's value as qpdf reads it from a file. */
const held = (path: string) =>
  new Map(
    (
      JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=acroform', path]).toString()) as {
        acroform: { fields: { fullname: string; value: unknown }[] };
      }
    ).acroform.fields.map((f) => [f.fullname, f.value]),
  );

async function chooseForm(options: Parameters<typeof site.open>[1] = {}) {
  const opened = await site.open('/tools/fill-pdf-form', options);
  const widget = opened.page.locator('.widget');
  await widget.locator('input[type="file"]').setInputFiles(form);
  await widget.locator('.form-fill li').first().waitFor();
  return { ...opened, widget };
}

describe('fill-pdf-form form filler', () => {
  it('lists the fields, fills a text field and a check box with the keyboard, and the result holds them', async () => {
    const { page, widget, errors } = await chooseForm();
    const filler = widget.locator('.form-fill');
    // Text fields, check boxes, the radio group and the list, each as the page's own control, with what it holds.
    expect(await filler.getByLabel('First Name', { exact: true }).inputValue()).toBe('Alice');
    expect(await filler.getByRole('checkbox', { name: /^gdpr/ }).isChecked()).toBe(false);
    expect(
      await filler
        .getByRole('group', { name: /^female/ })
        .getByRole('radio')
        .count(),
    ).toBe(2);
    expect(await filler.getByLabel('Nationality', { exact: true }).locator('option').allTextContents()).toContain(
      'French',
    );

    await filler.getByLabel('Last Name', { exact: true }).focus();
    await page.keyboard.type('Xylophone');
    await filler.getByRole('checkbox', { name: /^gdpr/ }).focus();
    await page.keyboard.press('Space');
    await filler.getByLabel('Nationality', { exact: true }).selectOption('French');
    const values = JSON.parse(await widget.getByLabel('Form values (JSON)').inputValue()) as Record<string, unknown>;
    expect(values).toEqual({ 'Last Name': 'Xylophone', gdpr: true, Nationality: 'French' });

    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

    await widget.getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    const result = await downloadResult(page, site.base);
    expect(pageCount(result.path)).toBe(1);
    const fields = held(result.path);
    expect(fields.get('Last Name')).toBe('u:Xylophone');
    expect(fields.get('gdpr')).toMatch(/^\/(?!Off)/);
    expect(fields.get('First Name')).toBe('u:Alice');
    expect(text(result.path)).toContain('Xylophone');
    expect(errors).toEqual([]);
  });

  it('fills a form on a phone by tapping, and flattens it', async () => {
    const { page, widget, errors } = await chooseForm({ viewport: { width: 390, height: 844 } });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const filler = widget.locator('.form-fill');
    await filler.getByLabel('Last Name', { exact: true }).fill('Tapper');
    await filler.getByRole('radio').nth(1).click();
    await filler.getByRole('checkbox', { name: /^other/ }).click();
    await widget.getByLabel(/^Flatten/).click();
    await widget.getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    const result = await downloadResult(page, site.base);
    expect(held(result.path).size).toBe(0); // flattened: no field left
    expect(text(result.path)).toContain('Tapper');
    expect(errors).toEqual([]);
  });
});
