/**
 * sign-pdf's page view: a signature drawn on the pad with a mouse (or a finger on a phone) or typed with
 * the keyboard, placed on the page preview by a click, a tap or the arrow keys; the tool's result has
 * ink at the place chosen and nowhere else. The view passes axe.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { changedBox, render } from '../../services/pdf-editor/test/render.ts';
import { seriousAxeViolations, useBrowser } from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { pageCount } from '../lib/pdf.ts';
import { downloadResult, settledStatus } from './site.ts';

const site = useBrowser();
const source = join(corpusDir, 'pdf', 'pypdf-pdflatex-outline.pdf');

async function choosePdf(options: Parameters<typeof site.open>[1] = {}) {
  const opened = await site.open('/tools/sign-pdf', options);
  const widget = opened.page.locator('.widget');
  await widget.locator('input[type="file"]').first().setInputFiles(source);
  await widget.getByLabel(/^Page to sign/).fill('1');
  const surface = widget.getByRole('application', { name: /^Page 1: the signature/ });
  await surface.locator('img').first().waitFor();
  return { ...opened, widget, surface };
}

/** A point of an element, as shares of its width and height, in the page's pixels. */
async function pointIn(element: Locator, x: number, y: number) {
  const box = (await element.boundingBox())!;
  return { x: box.x + box.width * x, y: box.y + box.height * y };
}

/** A zigzag across the pad, as a hand would sign. */
const strokes = [0.1, 0.25, 0.4, 0.55, 0.7, 0.85].map((x, i) => ({ x, y: i % 2 ? 0.2 : 0.8 }));

/** The result's first page differs from the source's only in a box around the signature's place. */
async function expectInkAt(page: Page, box: { left: number; top: number; right: number; bottom: number }) {
  const result = await downloadResult(page, site.base);
  expect(pageCount(result.path)).toBe(4);
  const changed = changedBox(render(source, 1, 50), render(result.path, 1, 50));
  expect(changed).toBeDefined();
  expect(changed!.left).toBeGreaterThanOrEqual(box.left);
  expect(changed!.top).toBeGreaterThanOrEqual(box.top);
  expect(changed!.right).toBeLessThanOrEqual(box.right);
  expect(changed!.bottom).toBeLessThanOrEqual(box.bottom);
  expect(changedBox(render(source, 2, 30), render(result.path, 2, 30))).toBeUndefined();
}

describe('sign-pdf signature view', () => {
  it('draws a signature with the mouse, places it by a click and the arrow keys, and signs there', async () => {
    const { page, widget, surface, errors } = await choosePdf();
    const pad = widget.getByRole('img', { name: /^Draw your signature/ });
    await pad.scrollIntoViewIfNeeded();
    const first = await pointIn(pad, strokes[0]!.x, strokes[0]!.y);
    await page.mouse.move(first.x, first.y);
    await page.mouse.down();
    for (const s of strokes.slice(1)) {
      const p = await pointIn(pad, s.x, s.y);
      await page.mouse.move(p.x, p.y, { steps: 5 });
    }
    await page.mouse.up();
    await surface.locator('img.sign-mark').waitFor();
    // A click puts the signature's corner there; five presses of the right arrow move it on by 5%.
    await surface.scrollIntoViewIfNeeded();
    const at = await pointIn(surface, 0.2, 0.3);
    await page.mouse.click(at.x, at.y);
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    expect(Number(await widget.getByLabel(/^From the left/).inputValue())).toBeCloseTo(0.25, 2);
    expect(Number(await widget.getByLabel(/^From the top/).inputValue())).toBeCloseTo(0.3, 2);

    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

    await widget.getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    // 30% of the page wide by default, a third as high as wide.
    await expectInkAt(page, { left: 0.24, top: 0.29, right: 0.56, bottom: 0.45 });
    expect(errors).toEqual([]);
  });

  it('types a signature and places it with the keyboard alone', async () => {
    const { page, widget, surface, errors } = await choosePdf();
    await widget.getByRole('tab', { name: 'Type' }).focus();
    await page.keyboard.press('Enter');
    await widget.getByLabel('Type your name').focus();
    // The name in one input, so that the mark shown is the whole name's: a mark of its first letters is
    // taller, and the place is kept clear of the page's foot for the mark shown when a key is pressed.
    await page.keyboard.insertText('Ada Lovelace');
    await surface.locator('img.sign-mark').waitFor();
    await surface.focus();
    // From the default place (55% from the left, 80% from the top): up 20%, left 5%.
    for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowUp');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
    expect(Number(await widget.getByLabel(/^From the top/).inputValue())).toBeCloseTo(0.6, 2);
    await widget.getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    await expectInkAt(page, { left: 0.49, top: 0.59, right: 0.81, bottom: 0.75 });
    expect(errors).toEqual([]);
  });

  it('draws a signature with a finger on a phone and places it by a tap', async () => {
    const { page, widget, surface, errors } = await choosePdf({ viewport: { width: 390, height: 844 } });
    const touch = await page.context().newCDPSession(page);
    await touch.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
    const pad = widget.getByRole('img', { name: /^Draw your signature/ });
    await pad.scrollIntoViewIfNeeded();
    const points = await Promise.all(strokes.map((s) => pointIn(pad, s.x, s.y)));
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [points[0]!] });
    for (const p of points.slice(1))
      await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await surface.locator('img.sign-mark').waitFor();
    await surface.scrollIntoViewIfNeeded();
    const at = await pointIn(surface, 0.1, 0.1);
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    expect(Number(await widget.getByLabel(/^From the left/).inputValue())).toBeCloseTo(0.1, 2);
    await widget.getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    await expectInkAt(page, { left: 0.09, top: 0.09, right: 0.41, bottom: 0.25 });
    expect(errors).toEqual([]);
  });
});
