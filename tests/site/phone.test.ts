/**
 * The site on a phone: a compact sticky header (the search behind a button) and the fixed banner out of
 * the way while the upload widget is on screen; in English and in Arabic (right to left). The desktop
 * keeps its search field in the header.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setLocalStorageItem, useBrowser, visit, waitUntil } from '../lib/browser.ts';

const site = useBrowser();
const phone = { width: 390, height: 844 };

const height = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())?.height ?? 0;
const bannerVisible = (page: Page) => page.locator('footer .banner').isVisible();

/** A tool page on a phone, in a language (saved as the visitor's choice before the visit). */
async function phonePage(language: 'en' | 'ar') {
  const opened = await site.open('/faq', { viewport: phone });
  if (language === 'ar') {
    await setLocalStorageItem(opened.page, 'language', 'ar');
  }
  await visit(opened.page, `${site.base}/tools/pdf-compress`);
  await waitUntil(opened.page, `document.documentElement.lang === '${language}'`);
  return opened;
}

describe.each([
  ['en', 'Search tools', 'ltr'],
  ['ar', 'البحث في الأدوات', 'rtl'],
] as const)('on a phone, in %s', (language, searchLabel, dir) => {
  it('the header is compact, the search opens from its button, and nothing is wider than the screen', async () => {
    const { page, errors } = await phonePage(language);
    expect(await page.locator('html').getAttribute('dir')).toBe(dir);
    const header = await height(page, 'header.site-header');
    // About a tenth of the screen (it was a fifth, with the banner 27% of it).
    expect(header / phone.height).toBeLessThan(0.12);
    expect(await page.locator('#site-search').isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: searchLabel, exact: true });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.locator('#site-search').waitFor({ state: 'visible' });
    await waitUntil(page, `document.activeElement?.id === 'tool-search'`);
    await page.keyboard.type('watermark');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${site.base}/tools/add-watermark`);
    // Done: the search folds away again.
    await page.locator('#site-search').waitFor({ state: 'hidden' });
    expect(await page.evaluate(`document.documentElement.scrollWidth`)).toBeLessThanOrEqual(phone.width);
    expect(errors).toEqual([]);
  });

  it('the banner keeps out of the way while the upload widget is on screen', async () => {
    const { page, errors } = await phonePage(language);
    await page.locator('.widget').scrollIntoViewIfNeeded();
    await waitUntil(page, `document.querySelector('footer .banner').matches('.away')`);
    // It slides away (0.2 s) before it is hidden.
    await page.locator('footer .banner').waitFor({ state: 'hidden' });
    expect(await bannerVisible(page)).toBe(false);
    const header = await height(page, 'header.site-header');
    expect(header / phone.height).toBeLessThan(0.12);
    // Scrolled past the widget, to the footer: the banner is back.
    await page.locator('footer .copyright').scrollIntoViewIfNeeded();
    await waitUntil(page, `!document.querySelector('footer .banner').matches('.away')`);
    await page.locator('footer .banner').waitFor({ state: 'visible' });
    expect(await height(page, 'footer .banner')).toBeGreaterThan(0);
    // On a page without an upload widget it shows from the start.
    await page.goto(`${site.base}/faq`);
    await page.locator('footer .banner').waitFor({ state: 'visible' });
    expect(errors).toEqual([]);
  });
});

describe('on a desktop', () => {
  it('the search field sits in the header, with no button in front of it', async () => {
    const { page, errors } = await site.open('/tools/pdf-compress');
    expect(await page.locator('#site-search').isVisible()).toBe(true);
    expect(await page.locator('.search-toggle').isVisible()).toBe(false);
    expect(await page.getByRole('combobox', { name: 'Search tools' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });
});
