/**
 * The workflow builder: twelve tools, no duplicates, remove and reorder, run
 * only with a file and a tool, and a run that gives a checked result; saved workflows from the address.
 */
import { join } from 'node:path';
import { findTool, workflowTools } from '@quire/catalog';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { pageCount, qpdfCheck, text, words } from '../lib/pdf.ts';
import { downloadResult, settledStatus } from './site.ts';

const eleven = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');
const name = (id: string) => findTool(id)!.name;

const site = useBrowser();

const form = (page: Page) => page.locator('form.workflow');
const steps = async (page: Page) =>
  (await form(page).locator('ol.file-list .file-name').allTextContents()).map((s) => s.trim());
const addButton = (page: Page, id: string) => form(page).getByRole('button', { name: `Add ${name(id)}`, exact: true });
const runButton = (page: Page) => form(page).getByRole('button', { name: 'Run workflow', exact: true });
const needInput = (page: Page) => form(page).getByText('Please choose a file and select tools.', { exact: true });

describe('workflow builder', () => {
  it('offers the twelve tools, adds each once, removes and reorders, and runs only with a file and a tool', async () => {
    const { page, errors } = await site.open('/workflow-builder');
    const labels = (await form(page).locator('ul.workflow-tools button').allTextContents()).map((s) =>
      s.replace(/^\S+\s+/u, '').trim(),
    );
    expect(labels).toEqual(workflowTools.map((id) => `Add ${name(id)}`));
    expect(await runButton(page).isDisabled()).toBe(true);
    expect(await needInput(page).isVisible()).toBe(true);
    expect(await form(page).getByText('No tools yet. Add one from the list.').count()).toBe(1);

    await addButton(page, 'pdf-compress').click();
    expect(await steps(page)).toEqual(['Compress PDF']);
    // No duplicates: its add button is now disabled.
    expect(await addButton(page, 'pdf-compress').isDisabled()).toBe(true);
    // A tool but no file: still not runnable.
    expect(await runButton(page).isDisabled()).toBe(true);
    expect(await needInput(page).isVisible()).toBe(true);

    await addButton(page, 'pdf-split').click();
    expect(await steps(page)).toEqual(['Compress PDF', 'Split PDF']);
    await form(page).getByRole('button', { name: 'Remove Split PDF', exact: true }).click();
    expect(await steps(page)).toEqual(['Compress PDF']);
    expect(await addButton(page, 'pdf-split').isEnabled()).toBe(true);

    await addButton(page, 'pdf-unlock').click();
    expect(await steps(page)).toEqual(['Compress PDF', 'Unlock PDF']);
    await form(page).getByRole('button', { name: 'Move Unlock PDF up', exact: true }).click();
    expect(await steps(page)).toEqual(['Unlock PDF', 'Compress PDF']);
    await form(page).getByRole('button', { name: 'Move Unlock PDF down', exact: true }).click();
    expect(await steps(page)).toEqual(['Compress PDF', 'Unlock PDF']);
    expect(
      await form(page)
        .getByRole('link', { name: /Link to this workflow/ })
        .getAttribute('href'),
    ).toBe('/workflow/pdf-compress,pdf-unlock');

    // Removing every tool disables the run again, even with a file.
    await page.locator('#workflow-file').setInputFiles(eleven);
    expect(await runButton(page).isEnabled()).toBe(true);
    expect(await needInput(page).count()).toBe(0);
    await form(page).getByRole('button', { name: 'Remove Compress PDF', exact: true }).click();
    await form(page).getByRole('button', { name: 'Remove Unlock PDF', exact: true }).click();
    expect(await steps(page)).toEqual([]);
    expect(await runButton(page).isDisabled()).toBe(true);
    expect(await needInput(page).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('runs Compress PDF then Unlock PDF on a file and gives a result with the same pages', async () => {
    const { page, errors } = await site.open('/workflow-builder');
    await page.locator('#workflow-file').setInputFiles(eleven);
    expect(await runButton(page).isDisabled()).toBe(true);
    await addButton(page, 'pdf-compress').click();
    await addButton(page, 'pdf-unlock').click();
    expect(await runButton(page).isEnabled()).toBe(true);
    await runButton(page).click();
    expect(await settledStatus(page, 'form.workflow')).toBe('Done: your file went through 2 steps.');
    const result = await downloadResult(page, site.base, 'form.workflow');
    expect(qpdfCheck(result.path)).toBe(0);
    expect(pageCount(result.path)).toBe(pageCount(eleven));
    expect(words(text(result.path))).toEqual(words(text(eleven)));
    expect(await form(page).locator('progress').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('saved workflows', () => {
  it('/workflow/pdf-compress,pdf-unlock shows those two steps, ready to run', async () => {
    const { page, errors } = await site.open('/workflow/pdf-compress,pdf-unlock');
    expect(await page.locator('main h1').textContent()).toBe('Saved workflow');
    expect(await steps(page)).toEqual(['Compress PDF', 'Unlock PDF']);
    expect(await addButton(page, 'pdf-compress').isDisabled()).toBe(true);
    expect(await addButton(page, 'pdf-unlock').isDisabled()).toBe(true);
    expect(await addButton(page, 'pdf-merge').isEnabled()).toBe(true);
    await page.locator('#workflow-file').setInputFiles(eleven);
    await runButton(page).click();
    expect(await settledStatus(page, 'form.workflow')).toBe('Done: your file went through 2 steps.');
    const result = await downloadResult(page, site.base, 'form.workflow');
    expect(pageCount(result.path)).toBe(11);
    expect(errors).toEqual([]);
  });

  it('a chain the catalog refuses (split makes a zip) fails with the reason', async () => {
    const { page, errors } = await site.open('/workflow/pdf-split,pdf-compress');
    expect(await steps(page)).toEqual(['Split PDF', 'Compress PDF']);
    await page.locator('#workflow-file').setInputFiles(eleven);
    await runButton(page).click();
    const status = await settledStatus(page, 'form.workflow');
    expect(status.startsWith('Workflow failed. These steps cannot be chained in this order.')).toBe(true);
    expect(status).toContain('pdf-compress');
    expect(await form(page).locator('.result a').count()).toBe(0);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });

  it('unknown and repeated ids in the address are dropped, without an error', async () => {
    const { page, errors, dialogs } = await site.open('/workflow/pdf-compress,nope,pdf-compress,%3Cscript%3E');
    expect(await steps(page)).toEqual(['Compress PDF']);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });
});
