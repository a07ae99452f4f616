/**
 * What the header remembers and does: the dark-mode switch, the language picker
 * and detection, and the tool search.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  localStorageItem,
  pageWaitMs,
  setLocalStorageItem,
  useBrowser,
  visit,
  waitForHydration,
  waitUntil,
} from '../lib/browser.ts';

const site = useBrowser();

const htmlAttr = (page: Page, name: string) => page.locator('html').getAttribute(name);
const isDark = async (page: Page) =>
  (await page.evaluate(`document.documentElement.classList.contains('dark')`)) as boolean;
const bodyBackground = async (page: Page) =>
  (await page.evaluate(`getComputedStyle(document.body).backgroundColor`)) as string;

/** Reloads and reads the theme as soon as the document is parsed, before any app script has run. */
async function darkRightAfterReload(page: Page): Promise<boolean> {
  await page.reload({ waitUntil: 'domcontentloaded' });
  return isDark(page);
}

describe('dark mode', () => {
  it('the switch stores dark_mode as the text true/false, sets html.dark and survives a reload', async () => {
    const { page, errors } = await site.open('/tools/pdf-compress');
    const toggle = page.getByRole('button', { name: 'Dark mode' });
    expect(await localStorageItem(page, 'dark_mode')).toBeNull();
    expect(await isDark(page)).toBe(false);
    const light = await bodyBackground(page);

    await toggle.click();
    expect(await localStorageItem(page, 'dark_mode')).toBe('true');
    expect(await isDark(page)).toBe(true);
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await bodyBackground(page)).not.toBe(light);

    // Present right after load: the page never paints light first.
    expect(await darkRightAfterReload(page)).toBe(true);
    await waitForHydration(page);
    expect(await page.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed')).toBe('true');
    // And on another page of the site.
    await page.getByRole('link', { name: 'Blog', exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Blog', exact: true }).waitFor();
    expect(await isDark(page)).toBe(true);

    await page.getByRole('button', { name: 'Dark mode' }).click();
    expect(await localStorageItem(page, 'dark_mode')).toBe('false');
    expect(await isDark(page)).toBe(false);
    expect(await bodyBackground(page)).toBe(light);
    expect(await darkRightAfterReload(page)).toBe(false);
    expect(errors).toEqual([]);
  });
});

describe('languages', () => {
  it('picking Español translates the header and the tool page, is saved and survives a reload', async () => {
    const { page, errors } = await site.open('/tools/pdf-compress');
    await page.getByLabel('Language').selectOption('es');
    await page.locator('.tool-header .eyebrow', { hasText: 'Herramienta PDF gratuita' }).waitFor();
    expect(await page.locator('main h1').textContent()).toMatch(/^Convierte con /);
    expect(await page.locator('ol.steps li').first().textContent()).toBe('Sube tu archivo para empezar');
    expect(await page.locator('header .menu-button').first().textContent()).toBe('Convertir');
    expect(await page.locator('.header-actions a[href="/login"]').textContent()).toBe('Iniciar sesión');
    expect(await localStorageItem(page, 'language')).toBe('es');
    expect(await htmlAttr(page, 'lang')).toBe('es');

    await visit(page, page.url());
    await page.locator('.tool-header .eyebrow', { hasText: 'Herramienta PDF gratuita' }).waitFor();
    expect(await page.getByLabel('Idioma').inputValue()).toBe('es');
    expect(await htmlAttr(page, 'lang')).toBe('es');
    expect(await page.locator('#trending').textContent()).toBe('🔥 Tendencias');
    expect(errors).toEqual([]);
  });

  it('picking العربية writes the page right to left', async () => {
    const { page, errors } = await site.open('/');
    expect(await htmlAttr(page, 'dir')).toBe('ltr');
    await page.getByLabel('Language').selectOption({ label: 'العربية' });
    await waitUntil(page, `document.documentElement.dir === 'rtl'`);
    expect(await htmlAttr(page, 'lang')).toBe('ar');
    expect(await htmlAttr(page, 'dir')).toBe('rtl');
    expect(await localStorageItem(page, 'language')).toBe('ar');
    // Back to English: left to right again.
    await page.locator('.language select').selectOption('en');
    await waitUntil(page, `document.documentElement.dir === 'ltr'`);
    expect(await htmlAttr(page, 'lang')).toBe('en');
    expect(errors).toEqual([]);
  });

  it('a French browser with nothing saved gets French, and the choice is cached', async () => {
    const { page, errors } = await site.open('/tools/pdf-compress', { locale: 'fr-FR' });
    await page.locator('.tool-header .eyebrow', { hasText: 'Outil PDF gratuit' }).waitFor();
    expect(await page.locator('main h1').textContent()).toMatch(/^Convertir avec /);
    expect(await htmlAttr(page, 'lang')).toBe('fr');
    expect(await localStorageItem(page, 'language')).toBe('fr');
    expect(errors).toEqual([]);
  });

  it.each(['<script>alert(1)</script>', 'xx', 'es"><img src=x onerror=alert(1)>', 'javascript:alert(1)'])(
    'a saved language %j is discarded: English, and no dialog',
    async (saved) => {
      const { page, errors, dialogs } = await site.open('/tools/pdf-compress');
      await setLocalStorageItem(page, 'language', saved);
      await visit(page, page.url());
      await waitUntil(page, `localStorage.getItem('language') === 'en'`, pageWaitMs, 'the language to be settled');
      expect(await htmlAttr(page, 'lang')).toBe('en');
      expect(await page.locator('.tool-header .eyebrow').textContent()).toBe('Free PDF Tool');
      expect(await page.locator('main h1').textContent()).toBe('Convert with Compress PDF');
      expect(await page.getByLabel('Language').inputValue()).toBe('en');
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it('a discarded saved value falls through to the browser language', async () => {
    const { page, dialogs } = await site.open('/', { locale: 'fr-FR' });
    await setLocalStorageItem(page, 'language', '<script>alert(1)</script>');
    await visit(page, page.url());
    await waitUntil(page, `localStorage.getItem('language') === 'fr'`, pageWaitMs, 'French');
    expect(await htmlAttr(page, 'lang')).toBe('fr');
    expect(dialogs).toEqual([]);
  });
});

describe('tool search', () => {
  async function search(page: Page, text: string) {
    const box = page.getByRole('searchbox', { name: 'Search tools' });
    await box.fill(text);
    await box.press('Enter');
  }

  it.each([
    ['merge', 'pdf-merge', 'Merge PDF'],
    ['JPG', 'jpg-to-pdf', 'JPG to PDF'],
    ['  Compress ', 'pdf-compress', 'Compress PDF'],
    ['to-word', 'pdf-to-word', 'PDF to Word'],
  ])('%j goes to /tools/%s', async (text, id, name) => {
    const { page, errors, dialogs } = await site.open('/blog');
    await search(page, text);
    await page.getByRole('heading', { level: 1, name: `Convert with ${name}`, exact: true }).waitFor();
    expect(page.url()).toBe(`${site.base}/tools/${id}`);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it.each(['zzz', 'rotate'])('%j, which no tool of the search list matches, alerts the hint', async (text) => {
    const { page, dialogs } = await site.open('/blog');
    const dialog = page.waitForEvent('dialog');
    await search(page, text);
    await dialog;
    expect(dialogs).toEqual(["Tool not found. Try keywords like 'merge', 'jpg', or 'compress'."]);
    expect(page.url()).toBe(`${site.base}/blog`);
  });
});
