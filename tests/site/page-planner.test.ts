/**
 * organize-pdf's page view: a real PDF's pages shown by pdf.js, moved and rotated with the keyboard, which
 * writes the page plan; the tool then makes the pages in that order. The view passes axe as well.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser } from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { pageCount, rotations, text, words } from '../lib/pdf.ts';
import { downloadResult, settledStatus } from './site.ts';

const site = useBrowser();
const four = join(corpusDir, 'pdf', 'pypdf-pdflatex-4-pages.pdf');

describe('organize-pdf page view', () => {
  it('moves and rotates a page with the keyboard, writes the plan, and the tool follows it', async () => {
    const { page, errors } = await site.open('/tools/organize-pdf');
    const widget = page.locator('.widget');
    await widget.locator('input[type="file"]').setInputFiles(four);
    const pages = widget.locator('.page-grid button');
    await pages.nth(3).waitFor();
    expect(await pages.count()).toBe(4);
    await widget.locator('.page-grid img').first().waitFor(); // pdf.js drew a page

    await pages.first().focus();
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('r');
    const plan = widget.getByLabel('Page plan');
    expect(await plan.inputValue()).toBe('2-3,1r90,4');
    expect(await page.evaluate(`document.activeElement.getAttribute('aria-label')`)).toBe(
      'Page 1, position 3 of 4, turned 90°',
    );
    expect(await widget.locator('.planner [aria-live="polite"]').textContent()).toContain('Rotated: pages 1.');

    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

    await widget.getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    const result = await downloadResult(page, site.base);
    expect(pageCount(result.path)).toBe(4);
    const pageText = (path: string, p: number) => words(text(path, { first: p, last: p }));
    expect([1, 2, 3, 4].map((p) => pageText(result.path, p))).toEqual([2, 3, 1, 4].map((p) => pageText(four, p)));
    expect(rotations(result.path)[2]! % 360).toBe(90);
    expect(errors).toEqual([]);
  });
});
