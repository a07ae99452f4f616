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
    // The choice is saved at once; the page is French once its dictionary has loaded.
    await waitUntil(
      page,
      `localStorage.getItem('language') === 'fr' && document.documentElement.lang === 'fr'`,
      pageWaitMs,
      'French',
    );
    expect(await htmlAttr(page, 'lang')).toBe('fr');
    expect(dialogs).toEqual([]);
  });
});

describe('a language chosen early', () => {
  it('a choice made before the page script has started is applied once it starts, and stays', async () => {
    const { page, errors } = await site.openBlank();
    // Holds the page's scripts back until the visitor has picked a language in the prerendered header.
    let release!: () => void;
    const picked = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await picked;
      await route.continue();
    });
    await page.goto(`${site.base}/tools/pdf-compress`, { waitUntil: 'commit' });
    await page.locator('.language select').selectOption('ar');
    release();
    await waitForHydration(page);
    await waitUntil(page, `document.documentElement.lang === 'ar'`, pageWaitMs, 'Arabic');
    await page.locator('.tool-header .eyebrow', { hasText: 'أداة PDF مجانية' }).waitFor();
    expect(await htmlAttr(page, 'dir')).toBe('rtl');
    expect(await page.locator('.language select').inputValue()).toBe('ar');
    expect(await localStorageItem(page, 'language')).toBe('ar');
    expect(errors).toEqual([]);
  });

  it("a choice made while the browser language's dictionary still loads wins over it", async () => {
    const { page, errors } = await site.openBlank({ locale: 'fr-FR' });
    // The French dictionary (the browser's language) arrives only after the visitor has chosen Arabic.
    let release!: () => void;
    const chosen = new Promise<void>((resolve) => (release = resolve));
    let frenchUrl = '';
    await page.route(/\/assets\/fr-[^/]*\.js$/, async (route) => {
      frenchUrl = route.request().url();
      await chosen;
      await route.continue();
    });
    await visit(page, `${site.base}/tools/pdf-compress`);
    await waitUntil(page, `localStorage.getItem('language') === 'fr'`, pageWaitMs, 'French detected');
    await page.locator('.language select').selectOption('ar');
    await waitUntil(page, `document.documentElement.lang === 'ar'`, pageWaitMs, 'Arabic');
    release();
    // Once the French module has run (importing it again resolves after), Arabic is still the language.
    expect(frenchUrl).not.toBe('');
    await page.evaluate(`import(${JSON.stringify(frenchUrl)}).then(() => undefined)`);
    await page.evaluate(`new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)))`);
    expect(await htmlAttr(page, 'lang')).toBe('ar');
    expect(await page.locator('.language select').inputValue()).toBe('ar');
    expect(await page.locator('.tool-header .eyebrow').textContent()).toBe('أداة PDF مجانية');
    expect(await localStorageItem(page, 'language')).toBe('ar');
    expect(errors).toEqual([]);
  });
});

describe('tool search', () => {
  const box = (page: Page) => page.getByRole('combobox', { name: 'Search tools' });
  const options = async (page: Page) =>
    (await page.getByRole('listbox').getByRole('option').allTextContents()).map((s) => s.trim());

  async function search(page: Page, text: string) {
    await box(page).fill(text);
    await box(page).press('Enter');
  }

  it.each([
    ['merge', 'pdf-merge', 'Merge PDF'],
    ['JPG', 'jpg-to-pdf', 'JPG to PDF'],
    ['  Compress ', 'pdf-compress', 'Compress PDF'],
    ['to-word', 'pdf-to-word', 'PDF to Word'],
  ])('%j and Enter, with no suggestion highlighted, goes to /tools/%s', async (text, id, name) => {
    const { page, errors, dialogs } = await site.open('/blog');
    await search(page, text);
    await page.getByRole('heading', { level: 1, name: `Convert with ${name}`, exact: true }).waitFor();
    expect(page.url()).toBe(`${site.base}/tools/${id}`);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it.each(['zzz', 'rotate'])(
    '%j and Enter, with no suggestion highlighted and none of the search list matching, alerts the hint',
    async (text) => {
      const { page, dialogs } = await site.open('/blog');
      const dialog = page.waitForEvent('dialog');
      await search(page, text);
      await dialog;
      expect(dialogs).toEqual(["Tool not found. Try keywords like 'merge', 'jpg', or 'compress'."]);
      expect(page.url()).toBe(`${site.base}/blog`);
    },
  );

  it.each([
    ['rotate', 'Rotate PDF', 'rotate-pdf'],
    ['watermark', 'Add Watermark', 'add-watermark'],
    ['image', 'Image to PDF', 'image-to-pdf'],
    ['combine', 'Merge PDF', 'pdf-merge'],
    ['split pdf', 'Split PDF', 'pdf-split'],
    ['protect', 'Protect PDF', 'protect-pdf'],
    ['ocr', 'OCR PDF', 'pdf-ocr'],
  ])('typing %j suggests %s first; the down arrow and Enter open it', async (text, name, id) => {
    const { page, errors, dialogs } = await site.open('/faq');
    await box(page).fill(text);
    await page.getByRole('listbox').waitFor();
    expect(await box(page).getAttribute('aria-expanded')).toBe('true');
    expect((await options(page))[0]).toContain(name);
    await box(page).press('ArrowDown');
    const first = page.getByRole('listbox').getByRole('option').first();
    expect(await first.getAttribute('aria-selected')).toBe('true');
    expect(await box(page).getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
    await box(page).press('Enter');
    await page.getByRole('heading', { level: 1, name: `Convert with ${name}`, exact: true }).waitFor();
    expect(page.url()).toBe(`${site.base}/tools/${id}`);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('suggests every image tool for "image", says how many, and Escape closes the list', async () => {
    const { page, errors } = await site.open('/');
    await box(page).fill('image');
    await page.getByRole('listbox').waitFor();
    expect(await options(page)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Image to PDF'),
        expect.stringContaining('JPG to PDF'),
        expect.stringContaining('PDF to Images'),
        expect.stringContaining('Extract Images from PDF'),
      ]),
    );
    const count = (await options(page)).length;
    expect(await page.locator('#site-search [role="status"]').textContent()).toBe(
      `${count} tools found: use the up and down arrows to choose one.`,
    );
    // Up from the top wraps to the last; down from the last wraps to the first.
    await box(page).press('ArrowUp');
    expect(await page.getByRole('listbox').getByRole('option').last().getAttribute('aria-selected')).toBe('true');
    await box(page).press('ArrowDown');
    expect(await page.getByRole('listbox').getByRole('option').first().getAttribute('aria-selected')).toBe('true');
    await box(page).press('Escape');
    expect(await box(page).getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('listbox').isVisible()).toBe(false);
    expect(await box(page).inputValue()).toBe('image');
    expect(errors).toEqual([]);
  });

  it('a click on a suggestion opens that tool', async () => {
    const { page, errors } = await site.open('/');
    await box(page).fill('metadata');
    await page.getByRole('option', { name: 'PDF Metadata Cleaner' }).click();
    await page.getByRole('heading', { level: 1, name: 'Convert with PDF Metadata Cleaner', exact: true }).waitFor();
    expect(page.url()).toBe(`${site.base}/tools/pdf-metadata-cleaner`);
    // The search is ready for the next one: empty, closed.
    expect(await box(page).inputValue()).toBe('');
    expect(await box(page).getAttribute('aria-expanded')).toBe('false');
    expect(errors).toEqual([]);
  });

  it('in Arabic it finds tools by their Arabic names and words, and shows them in Arabic', async () => {
    const { page, errors } = await site.open('/');
    await page.getByLabel('Language').selectOption('ar');
    await waitUntil(page, `document.documentElement.dir === 'rtl'`);
    const search = page.getByRole('combobox', { name: 'البحث في الأدوات' });
    await search.fill('دمج');
    await page.getByRole('listbox').waitFor();
    expect((await options(page))[0]).toContain('دمج');
    await search.press('ArrowDown');
    await search.press('Enter');
    await page.waitForURL(`${site.base}/tools/pdf-merge`);
    // The English words work in any language.
    await search.fill('rotate');
    await page.getByRole('listbox').waitFor();
    await search.press('ArrowDown');
    await search.press('Enter');
    await page.waitForURL(`${site.base}/tools/rotate-pdf`);
    expect(errors).toEqual([]);
  });
});
