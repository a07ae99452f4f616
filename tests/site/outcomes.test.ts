/**
 * How a run's outcome reaches the visitor, in Chromium on a desktop and a phone, in English and Arabic:
 * errors as alerts in plain words naming the file, scrolled into view clear of the sticky header and the
 * fixed banner; a result's link to copy with its lifetime; Unlock PDF's password field from the start.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrowser, waitUntil, type OpenOptions } from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { pageCount } from '../lib/pdf.ts';
import { downloadResult } from './site.ts';

const eleven = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');
const png = join(corpusDir, 'images', 'pillow-transparent.png');
const scratch = mkdtempSync(join(tmpdir(), 'site-outcomes-'));
const empty = join(scratch, 'empty.pdf');
writeFileSync(empty, '');
const isolate = (text: string) => `\u2068${text}\u2069`;

const site = useBrowser();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const phone: OpenOptions = { viewport: { width: 390, height: 844 } };
const arabicPhone: OpenOptions = { ...phone, locale: 'ar' };

const widget = (page: Page) => page.locator('.widget');

/** A page on a phone in Arabic, once its copy has loaded (the page turns right to left then). */
async function openArabic(path: string): Promise<Page> {
  const { page } = await site.open(path, arabicPhone);
  await waitUntil(page, `document.documentElement.dir === 'rtl'`, 10_000, 'the Arabic copy');
  return page;
}

async function run(page: Page, files: string | string[], button = 'Convert'): Promise<string> {
  await widget(page).locator('input[type="file"]').setInputFiles(files);
  await widget(page).locator('button[type="submit"]', { hasText: button }).click();
  return settled(page);
}

/** The status once the run is over, in any language: the button is back and the line says something. */
async function settled(page: Page): Promise<string> {
  const done = `(() => {
    const status = document.querySelector('.widget .upload-status')?.textContent ?? '';
    return status !== '' && !document.querySelector('.widget button[type="submit"]').disabled;
  })()`;
  await waitUntil(page, done, 90_000, 'the end of the run');
  return (await widget(page).locator('.upload-status').textContent()) ?? '';
}

/**
 * Waits until the element lies wholly in the part of the window nothing covers: below the sticky
 * header, above the fixed banner. The widget scrolls it there itself (smoothly: hence the wait).
 */
async function expectInView(page: Page, selector: string) {
  const where = `(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) return false;
    const box = el.getBoundingClientRect();
    const top = document.querySelector('.site-header').getBoundingClientRect().bottom;
    const banner = document.querySelector('.banner');
    const bottom = banner ? banner.getBoundingClientRect().top : window.innerHeight;
    return box.height > 0 && box.top >= top - 1 && box.bottom <= bottom + 1;
  })()`;
  await waitUntil(page, where, 10_000, `${selector} between the header and the banner`);
}

/** The alert's colour and its border are the theme's danger colour, and it carries an icon (or its own). */
async function looksLikeAnError(page: Page, selector: string, icon: RegExp = /^"!"/) {
  const style = (await page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const s = getComputedStyle(el);
    const probe = document.createElement('span');
    probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--danger').trim();
    el.append(probe);
    const danger = getComputedStyle(probe).color;
    probe.remove();
    return { color: s.color, border: s.borderInlineStartColor, direction: s.direction,
      icon: getComputedStyle(el, '::before').content, danger, role: el.getAttribute('role') };
  })()`)) as { color: string; border: string; direction: string; icon: string; danger: string; role: string };
  expect(style.role).toBe('alert');
  expect(style.color).toBe(style.danger);
  expect(style.border).toBe(style.danger);
  expect(style.icon).toMatch(icon);
  return style;
}

describe('an error', () => {
  it('on a desktop in English: an alert naming the file and what the tool takes, in view', async () => {
    const { page, errors } = await site.open('/tools/pdf-merge');
    const status = await run(page, [eleven, png]);
    expect(status).toBe(
      `${isolate('pillow-transparent.png')} is of type ${isolate('PNG')}; Merge PDF takes ${isolate('PDF')}.`,
    );
    expect(await widget(page).getByRole('alert').textContent()).toBe(status);
    expect(await widget(page).locator('.upload-status[role="status"]').count()).toBe(0);
    await looksLikeAnError(page, '.widget [role="alert"]');
    await expectInView(page, '.widget [role="alert"]');
    expect(errors.filter((e) => !/status of 415/.test(e))).toEqual([]);
  });

  it("names the option by its label and the document's page count", async () => {
    const { page } = await site.open('/tools/pdf-split');
    await widget(page).locator('input[type="file"]').setInputFiles(eleven);
    await widget(page).getByLabel('Page ranges (empty: every page on its own)').fill('5-20');
    await widget(page).locator('button[type="submit"]').click();
    expect(await settled(page)).toBe('Page ranges: this document has 11 pages; use page numbers from 1 to 11.');
  });

  it('on a phone in Arabic: an empty file said to be empty, right to left, clear of the banner', async () => {
    const page = await openArabic('/tools/pdf-compress');
    const status = await run(page, empty, 'تحويل');
    expect(status).toBe(`الملف ${isolate('empty.pdf')} فارغ (0 بايت). يُرجى اختيار الملف مرة أخرى.`);
    expect((await looksLikeAnError(page, '.widget [role="alert"]')).direction).toBe('rtl');
    await expectInView(page, '.widget [role="alert"]');
  });

  it("keeps the spec's own failure text, with its own icon", async () => {
    const { page } = await site.open('/tools/pdf-compress', phone);
    await page.route('**/api.php?tool=pdf-compress', (route) => route.abort());
    const status = await run(page, eleven);
    expect(status).toBe('❌ Upload error.');
    await looksLikeAnError(page, '.widget [role="alert"]', /^none$/);
    await expectInView(page, '.widget [role="alert"]');
  });
});

describe('a result', () => {
  it('on a desktop: a link to copy, which downloads the result, and how long it works', async () => {
    const { page, context } = await site.open('/tools/rotate-pdf');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.base });
    expect(await run(page, eleven)).toBe('Success');
    // Before anything else is clicked: a click scrolls its own target into view.
    await expectInView(page, '.widget .result');
    const result = await downloadResult(page, site.base);
    expect(pageCount(result.path)).toBe(11);
    const link = widget(page).locator('.share input');
    expect(await link.inputValue()).toBe(`${site.base}/uploads/${encodeURIComponent(result.name)}`);
    expect(await widget(page).locator('.share .note').first().textContent()).toMatch(
      /^The link works until \d{1,2}:\d{2}\s?(AM|PM)?, then the file is deleted\.$/,
    );
    await widget(page).getByRole('button', { name: 'Copy link', exact: true }).click();
    await widget(page).locator('.share [role="status"]', { hasText: 'Link copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(await link.inputValue());
  });

  it('on a phone in Arabic: scrolled into view above the banner, the link left to right', async () => {
    const page = await openArabic('/tools/rotate-pdf');
    expect(await run(page, eleven, 'تحويل')).toBe('تمت العملية بنجاح');
    await expectInView(page, '.widget .result');
    const share = widget(page).locator('.share');
    expect(await share.getByRole('button', { name: 'نسخ الرابط', exact: true }).count()).toBe(1);
    expect(await share.locator('input').getAttribute('dir')).toBe('ltr');
    expect(await share.locator('.note').first().textContent()).toMatch(/^يعمل الرابط حتى .+، ثم يُحذف الملف\.$/);
  });
});

describe('Unlock PDF', () => {
  it('on a phone in Arabic: the password field is there before any file is chosen', async () => {
    const page = await openArabic('/tools/pdf-unlock');
    const field = widget(page).getByLabel('كلمة مرور ملف PDF');
    expect(await field.getAttribute('type')).toBe('password');
    expect(await field.isVisible()).toBe(true);
    expect(await widget(page).locator('.hint').textContent()).toBe('فقط إذا طلب ملف PDF كلمة مرور لفتحه.');
    // Other PDF tools still ask only when a file needs it.
    const compress = await openArabic('/tools/pdf-compress');
    expect(await widget(compress).locator('input[type="password"]').count()).toBe(0);
  });
});
