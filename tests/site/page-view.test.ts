/**
 * The page views of pdf-page-remove, add-page-numbers and crop-pdf, on real PDFs drawn by pdf.js: what
 * a visitor clicks, types or draws is written to the fields, and the tool's result follows it. The views
 * pass axe, and work on a phone with a long PDF whose thumbnails are drawn only as they scroll into view.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser, waitUntil } from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { pageCount, text, words } from '../lib/pdf.ts';
import { downloadResult, settledBox, settledStatus } from './site.ts';

const site = useBrowser();
const four = join(corpusDir, 'pdf', 'pypdf-pdflatex-4-pages.pdf'); // A4, 595.28 × 841.89 pt
const long = join(corpusDir, 'pdf', 'pypdf-geotopo-117-pages.pdf');
const mm = 72 / 25.4;

const pageText = (path: string, p: number) => words(text(path, { first: p, last: p }));
const pressed = (page: Page) =>
  page.locator('.page-grid button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-pressed')));

/** A page's crop box as pdfinfo reads it: x1, y1, x2, y2 in points. */
function cropBox(path: string, p: number): number[] {
  const out = execFileSync('pdfinfo', ['-box', '-f', String(p), '-l', String(p), path]).toString();
  return /CropBox:\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)/.exec(out)!.slice(1).map(Number);
}

async function choose(path: string, tool: string, options: Parameters<typeof site.open>[1] = {}) {
  const opened = await site.open(`/tools/${tool}`, options);
  const widget = opened.page.locator('.widget');
  await widget.locator('input[type="file"]').setInputFiles(path);
  return { ...opened, widget };
}

describe('pdf-page-remove page view', () => {
  it('marks the pages clicked, writes them as ranges, follows the field, and the tool deletes them', async () => {
    const { page, widget, errors } = await choose(four, 'pdf-page-remove');
    const pages = widget.locator('.page-grid button');
    await pages.nth(3).waitFor();
    await widget.locator('.page-grid img').first().waitFor();
    const field = widget.getByLabel('Pages', { exact: true });

    await pages.nth(1).click();
    await pages.nth(2).click();
    expect(await field.inputValue()).toBe('2-3');
    expect(await pressed(page)).toEqual(['false', 'true', 'true', 'false']);
    expect(await widget.locator('.page-grid .marked').count()).toBe(2);

    await field.fill('4');
    expect(await pressed(page)).toEqual(['false', 'false', 'false', 'true']);
    // The keyboard: one tab stop, arrows go from page to page, Space marks.
    await pages.nth(3).focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    expect(await field.inputValue()).toBe('2-4');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space'); // page 4 again: unmarked
    expect(await field.inputValue()).toBe('2-3');

    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

    await widget.getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    const result = await downloadResult(page, site.base);
    expect(pageCount(result.path)).toBe(2);
    expect([1, 2].map((p) => pageText(result.path, p))).toEqual([1, 4].map((p) => pageText(four, p)));
    expect(errors).toEqual([]);
  });
});

describe('add-page-numbers page view', () => {
  it('chooses the pages to number and shows each number where it will be, as the tool writes it', async () => {
    const { page, widget, errors } = await choose(four, 'add-page-numbers');
    const pages = widget.locator('.page-grid button');
    await widget.locator('.page-grid img').nth(3).waitFor();
    // None chosen: every page is numbered.
    expect(await widget.locator('.number-preview').allTextContents()).toEqual(['1', '2', '3', '4']);

    await pages.nth(1).click();
    await pages.nth(2).click();
    expect(await widget.getByLabel('Pages', { exact: true }).inputValue()).toBe('2-3');
    await widget.locator('#add-page-numbers-format').selectOption('page-of-total');
    await widget.locator('#add-page-numbers-position').selectOption('top-right');
    const labels = widget.locator('.number-preview');
    expect(await labels.allTextContents()).toEqual(['Page 1 of 2', 'Page 2 of 2']);
    expect(await labels.first().getAttribute('text-anchor')).toBe('end');
    expect(Number(await labels.first().getAttribute('y'))).toBeLessThan(842 / 4);

    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

    await widget.getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    const result = await downloadResult(page, site.base);
    expect(text(result.path, { first: 2, last: 2 })).toContain('Page 1 of 2');
    expect(text(result.path, { first: 3, last: 3 })).toContain('Page 2 of 2');
    expect(pageText(result.path, 1)).toEqual(pageText(four, 1));
    expect(errors).toEqual([]);
  });
});

describe('crop-pdf page view', () => {
  it('writes the box drawn with the pointer and changed with the keyboard, and the result is cropped to it', async () => {
    const { page, widget, errors } = await choose(four, 'crop-pdf');
    const surface = widget.locator('.crop-surface');
    await surface.locator('img').waitFor();
    expect(await page.evaluate(`getComputedStyle(document.querySelector('.crop-surface')).touchAction`)).toBe('none');
    const at = await settledBox(page, '.crop-surface');
    const [width, height] = [595.28, 841.89];
    expect(at.width / at.height).toBeCloseTo(width / height, 2);

    // Drawn from 60% across and 70% down to 10% across and 20% down: the box is the same whichever way.
    await page.mouse.move(at.x + at.width * 0.6, at.y + at.height * 0.7);
    await page.mouse.down();
    await page.mouse.move(at.x + at.width * 0.4, at.y + at.height * 0.4, { steps: 4 });
    await page.mouse.move(at.x + at.width * 0.1, at.y + at.height * 0.2, { steps: 4 });
    await page.mouse.up();
    expect(await widget.locator('#crop-pdf-mode').inputValue()).toBe('box');
    const box = () =>
      widget
        .locator('#crop-pdf-box')
        .inputValue()
        .then((b) => b.split(',').map(Number));
    const drawn = await box();
    const expected = [0.1 * width, 0.2 * height, 0.5 * width, 0.5 * height].map((pt) => pt / mm);
    drawn.forEach((n, i) => expect(Math.abs(n - expected[i]!), `box ${drawn}`).toBeLessThan(1.5));
    expect(await widget.locator('.crop-view [aria-live]').textContent()).toContain(`${drawn[2]} × ${drawn[3]} mm`);

    // Arrow keys move it a millimetre, Shift with an arrow resizes it.
    await surface.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    const nudged = await box();
    [1, 0, 0, 2].forEach((d, i) => expect(nudged[i]).toBeCloseTo(drawn[i]! + d, 1));

    // Typed boxes and margins show on the page.
    const edge = widget.locator('.crop-edge');
    await widget.locator('#crop-pdf-box').fill('20, 30, 100, 150');
    expect(Number(await edge.getAttribute('y'))).toBeCloseTo(30 * mm, 1);
    await widget.locator('#crop-pdf-mode').selectOption('margins');
    await widget.locator('#crop-pdf-top').fill('25');
    expect(Number(await edge.getAttribute('y'))).toBeCloseTo(25 * mm, 1);
    expect(Number(await edge.getAttribute('height'))).toBeCloseTo(height - 25 * mm, 1);
    await widget.locator('#crop-pdf-mode').selectOption('box');
    await widget.locator('#crop-pdf-box').fill(nudged.join(', '));

    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

    await widget.getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    const result = await downloadResult(page, site.base);
    const [left, top, w, h] = nudged.map((n) => n * mm) as [number, number, number, number];
    const want = [left, height - top - h, left + w, height - top];
    cropBox(result.path, 1).forEach((n, i) =>
      expect(Math.abs(n - want[i]!), `CropBox ${n} vs ${want}`).toBeLessThan(0.1),
    );
    // And it is the rectangle dragged, within a few points (a pixel, the rounding and the nudge).
    const dragged = [0.1 * width + mm, height - 0.7 * height - 2 * mm, 0.6 * width + mm, height - 0.2 * height];
    cropBox(result.path, 1).forEach((n, i) => expect(Math.abs(n - dragged[i]!)).toBeLessThan(4));
    expect(errors).toEqual([]);
  });
});

describe('page views on a phone', () => {
  const phone = { viewport: { width: 390, height: 844 } };

  it('shows a long PDF without drawing every page at once, and marks pages with a tap', async () => {
    const { page, widget, errors } = await choose(long, 'pdf-page-remove', phone);
    const pages = widget.locator('.page-grid button');
    await pages.nth(116).waitFor({ state: 'attached' });
    expect(await pages.count()).toBe(117);
    await widget.locator('.page-grid img').first().waitFor();
    await page.waitForTimeout(1500);
    expect(await widget.locator('.page-grid img').count()).toBeLessThan(40);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

    await pages.nth(0).click();
    await pages.nth(116).scrollIntoViewIfNeeded();
    await pages.nth(116).click();
    await pages.nth(116).locator('img').waitFor(); // drawn once it came into view
    expect(await widget.getByLabel('Pages', { exact: true }).inputValue()).toBe('1,117');
    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('draws a crop box on a page that fits the screen', async () => {
    const { page, widget, errors } = await choose(four, 'crop-pdf', phone);
    const surface = widget.locator('.crop-surface');
    await surface.locator('img').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    // Another page, from the strip.
    await widget.getByRole('button', { name: 'Show page 3' }).click();
    await waitUntil(
      page,
      `document.querySelector('.crop-surface')?.getAttribute('aria-label') === 'Page 3: the part to keep'`,
    );
    const at = await settledBox(page, '.crop-surface');
    expect(at.x).toBeGreaterThanOrEqual(0);
    expect(at.x + at.width).toBeLessThanOrEqual(390);
    await page.mouse.move(at.x + at.width * 0.25, at.y + at.height * 0.25);
    await page.mouse.down();
    await page.mouse.move(at.x + at.width * 0.75, at.y + at.height * 0.75, { steps: 5 });
    await page.mouse.up();
    const box = (await widget.locator('#crop-pdf-box').inputValue()).split(',').map(Number);
    [52.5, 74.25, 105, 148.5].forEach((n, i) => expect(Math.abs(box[i]! - n), `box ${box}`).toBeLessThan(2.5));
    expect(errors).toEqual([]);
  });
});
