/**
 * axe-core on the main screens, light and dark: no violation of impact serious or critical.
 */
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, setLocalStorageItem, useBrowser, visit, waitUntil } from '../lib/browser.ts';

const site = useBrowser();

const pages = ['/', '/tools/pdf-compress', '/blog', '/blog/pdf-merge-guide', '/contact', '/workflow-builder'];
const cases = (['light', 'dark'] as const).flatMap((theme) => pages.map((path) => ({ path, theme })));

describe('accessibility', () => {
  it.each(cases)('$path in $theme mode', async ({ path, theme }) => {
    const { page, errors } = await site.open(path);
    if (theme === 'dark') {
      await setLocalStorageItem(page, 'dark_mode', 'true');
      await visit(page, `${site.base}${path}`);
    }
    await waitUntil(page, `document.documentElement.classList.contains('dark') === ${theme === 'dark'}`);
    // Settled: the visitor's language applied and no transition half-way.
    await waitUntil(page, `localStorage.getItem('language') === 'en'`);
    await page.evaluate(`Promise.all(document.getAnimations().map((a) => a.finished))`);
    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
