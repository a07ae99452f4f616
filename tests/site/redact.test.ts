/**
 * redact-pdf's page view on a real PDF drawn by pdf.js: areas drawn with the mouse and put and sized with
 * the keyboard are listed, can be removed, and go to the `boxes` field; the tool's result has lost the text
 * under them and shows them black. The view passes axe.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser } from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { text } from '../lib/pdf.ts';
import { downloadResult, renderPage, settledBox, settledStatus } from './site.ts';

const site = useBrowser();
const writer = join(corpusDir, 'pdf', 'pypdf-libreoffice-writer.pdf'); // A4; its first line 59 to 70 pt down, the second from 72

/** The mean grey (0 black, 255 white) of a part of page 1, its edges in fractions of the page. */
function meanGrey(path: string, x: number, y: number, w: number, h: number): number {
  const { width, height, pixels } = renderPage(path);
  let sum = 0;
  let n = 0;
  for (let row = Math.ceil(y * height); row < Math.floor((y + h) * height); row++)
    for (let col = Math.ceil(x * width); col < Math.floor((x + w) * width); col++, n++)
      sum += pixels[row * width + col]!;
  return sum / n;
}

describe('redact-pdf page view', () => {
  it('draws areas with the mouse and the keyboard, lists and removes them, and the result has lost their text', async () => {
    const { page, errors } = await site.open('/tools/redact-pdf');
    const widget = page.locator('.widget');
    await widget.locator('input[type="file"]').setInputFiles(writer);
    const surface = widget.locator('.redact-view .crop-surface');
    await surface.locator('img').waitFor();
    expect(await page.evaluate(`getComputedStyle(document.querySelector('.crop-surface')).touchAction`)).toBe('none');
    const at = await settledBox(page, '.redact-view .crop-surface');
    const field = widget.locator('#redact-pdf-boxes');
    const boxes = async () =>
      JSON.parse((await field.inputValue()) || '[]') as {
        page: number;
        x: number;
        y: number;
        width: number;
        height: number;
      }[];

    // The mouse: over the first line, drawn from its right end back to its left.
    const drag = async (x0: number, y0: number, x1: number, y1: number) => {
      await page.mouse.move(at.x + at.width * x0, at.y + at.height * y0);
      await page.mouse.down();
      await page.mouse.move(at.x + at.width * ((x0 + x1) / 2), at.y + at.height * ((y0 + y1) / 2), { steps: 4 });
      await page.mouse.move(at.x + at.width * x1, at.y + at.height * y1, { steps: 4 });
      await page.mouse.up();
    };
    await drag(0.97, 0.0835, 0.03, 0.067);
    const [first] = await boxes();
    expect(first!.page).toBe(1);
    expect(first!.x).toBeCloseTo(0.03, 1);
    expect(first!.y).toBeCloseTo(0.067, 2);
    expect(first!.width).toBeCloseTo(0.94, 1);

    // The keyboard: Enter puts a box in the middle of the page, an arrow moves it, Shift with an arrow widens it.
    await surface.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    const [, keyed] = await boxes();
    expect(keyed!.x).toBeCloseTo(0.4, 2);
    expect(keyed!.y).toBeGreaterThan(0.475);
    expect(keyed!.width).toBeGreaterThan(0.2);
    expect(await widget.locator('.redact-view [aria-live]').textContent()).toContain('2');

    // A third, drawn by mistake, is listed and removed again.
    await drag(0.1, 0.8, 0.3, 0.9);
    expect(await boxes()).toHaveLength(3);
    await widget.getByRole('button', { name: 'Remove area 3' }).click();
    expect(await boxes()).toHaveLength(2);
    expect(await widget.locator('.redact-list li').count()).toBe(2);

    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

    await widget.getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    const result = await downloadResult(page, site.base);
    const after = text(result.path);
    expect(text(writer)).toMatch(/consetetur sadipscing elitr, sed diam nonumy eirmod tempor\s+invidunt/);
    expect(after).not.toMatch(/consetetur sadipscing elitr, sed diam nonumy eirmod tempor\s+invidunt/);
    expect(after).toMatch(/invidunt ut labore et dolore magna aliquyam erat/);
    expect(
      meanGrey(result.path, keyed!.x + 0.01, keyed!.y + 0.01, keyed!.width - 0.02, keyed!.height - 0.02),
    ).toBeLessThan(10);
    expect(errors).toEqual([]);
  });
});
