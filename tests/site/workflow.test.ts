/**
 * The workflow builder: every catalog tool, the spec's first; at each step only the tools that read what
 * the step before makes, the others with their reason; options per step; reorder, duplicate and remove
 * from the keyboard; a four-step run with options on a Word file, checked in the downloaded PDF; the
 * workflow saved as a link and as a file, and loaded from both; the spec's /workflow/{steps} address.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTool, workflowTools } from '@quire/catalog';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser, waitForHydration, waitUntil } from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { pageCount, qpdfCheck, rotations, text, words } from '../lib/pdf.ts';
import { downloadResult, settledStatus } from './site.ts';

const eleven = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');
const twelveDocx = join(corpusDir, 'office', 'gotenberg-pages_12.docx');
const scan = join(corpusDir, 'pdf', 'textract-ocr_text-scanned.pdf');
const name = (id: string) => findTool(id)!.name;

const site = useBrowser();

const builder = (page: Page) => page.locator('div.workflow');
const runForm = 'form.workflow-run';
const steps = async (page: Page) =>
  (await builder(page).locator('ol.workflow-steps .file-name').allTextContents()).map((s) => s.trim());
const addButton = (page: Page, id: string) =>
  builder(page).getByRole('button', { name: `Add ${name(id)}`, exact: true });
const runButton = (page: Page) => builder(page).getByRole('button', { name: 'Run workflow', exact: true });
const needInput = (page: Page) => builder(page).getByText('Please choose a file and select tools.', { exact: true });
const step = (page: Page, n: number) => builder(page).locator(`ol.workflow-steps > li:nth-child(${n})`);

/** Opens the list of the tools that cannot come next, as a visitor does to read why. */
async function showUnfit(page: Page) {
  const details = builder(page).locator('details.workflow-unfit');
  if (!(await details.evaluate((d) => d.hasAttribute('open')))) await details.locator('summary').click();
}

/** Opens a step's options and sets one, by its label. */
async function setOption(page: Page, n: number, label: string, value: string, kind: 'select' | 'fill') {
  const s = step(page, n);
  if (!(await s.locator('details.step-options').evaluate((d) => d.hasAttribute('open'))))
    await s.locator('details.step-options > summary').click();
  const field = s.getByLabel(label, { exact: true });
  if (kind === 'select') await field.selectOption(value);
  else await field.fill(value);
}

/** Word to PDF, page numbers "Page n of N", a watermark of our own, compression: the four steps. */
async function buildFourSteps(page: Page) {
  for (const id of ['word-to-pdf', 'add-page-numbers', 'add-watermark', 'pdf-compress'])
    await addButton(page, id).click();
  expect(await steps(page)).toEqual(['Word to PDF', 'Add Page Numbers', 'Add Watermark', 'Compress PDF']);
  await setOption(page, 2, 'Format', 'page-of-total', 'select');
  await setOption(page, 3, 'Watermark text', 'QUIREMARK', 'fill');
  await setOption(page, 3, 'Position', 'center', 'select');
  await setOption(page, 4, 'Compression', 'extreme', 'select');
}

/** What a four-step result must show: every page numbered "Page n of 12" and watermarked, small. */
function expectFourStepResult(path: string) {
  expect(qpdfCheck(path)).toBe(0);
  expect(pageCount(path)).toBe(12);
  for (let p = 1; p <= 12; p++) {
    const pageText = text(path, { first: p, last: p });
    expect(pageText, `page ${p}`).toContain(`Page ${p} of 12`);
    expect(pageText.replace(/\s+/g, ''), `page ${p}`).toContain('QUIREMARK');
  }
  // A twelve-page text document, compressed: a few tens of kilobytes, not the hundreds a raw conversion with fonts gives.
  expect(statSync(path).size).toBeLessThan(200_000);
}

describe('workflow builder', () => {
  it('offers every catalog tool, the spec’s first, adds each once, and runs only with a file and a tool', async () => {
    const { page, errors } = await site.open('/workflow-builder');
    const offered = (await builder(page).locator('section ul.workflow-tools button').allTextContents()).map((s) =>
      s.replace(/^\S+\s+/u, '').trim(),
    );
    expect(offered.slice(0, workflowTools.length)).toEqual(workflowTools.map((id) => `Add ${name(id)}`));
    // Every tool of the catalog is there, web-address tools among those that cannot be a step.
    expect(offered.length).toBe((await import('@quire/catalog')).tools.length);
    await showUnfit(page);
    expect(await addButton(page, 'pdf-from-url').isDisabled()).toBe(true);
    expect(await runButton(page).isDisabled()).toBe(true);
    expect(await needInput(page).isVisible()).toBe(true);

    await addButton(page, 'pdf-compress').click();
    expect(await steps(page)).toEqual(['Compress PDF']);
    // Added once: its add button is disabled, and says why.
    expect(await addButton(page, 'pdf-compress').isDisabled()).toBe(true);
    expect(await runButton(page).isDisabled()).toBe(true);
    await page.locator(`${runForm} input[type="file"]`).setInputFiles(eleven);
    expect(await runButton(page).isEnabled()).toBe(true);
    expect(await needInput(page).count()).toBe(0);
    await builder(page).getByRole('button', { name: 'Remove Compress PDF', exact: true }).click();
    expect(await steps(page)).toEqual([]);
    expect(await runButton(page).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('explains why a tool cannot follow, and refuses a step that does not fit with its reason', async () => {
    const { page, errors } = await site.open('/workflow-builder');
    await addButton(page, 'word-to-pdf').click();
    await showUnfit(page);
    const merge = addButton(page, 'pdf-merge');
    expect(await merge.isDisabled()).toBe(true);
    const reasonId = await merge.getAttribute('aria-describedby');
    expect(await page.locator(`#${reasonId}`).textContent()).toBe(
      'Merge PDF needs several files, so it can only be the first step.',
    );
    expect(
      await page.locator(`#${await addButton(page, 'excel-to-pdf').getAttribute('aria-describedby')}`).textContent(),
    ).toBe('Excel to PDF cannot read the PDF file that Word to PDF makes.');
    // What Word to PDF makes goes on to the PDF tools, beyond the spec's list too.
    expect(await addButton(page, 'add-page-numbers').isEnabled()).toBe(true);

    // A chain that does not fit, from the address: the step says why, and the run is refused before any upload.
    const opened = await site.open('/workflow/pdf-split,pdf-compress');
    expect(await steps(opened.page)).toEqual(['Split PDF', 'Compress PDF']);
    expect(await step(opened.page, 2).locator('.step-problem').textContent()).toBe(
      'Step 2: Compress PDF cannot read the ZIP file that Split PDF makes.',
    );
    const requests: string[] = [];
    opened.page.on('request', (r) => void (r.method() === 'POST' && requests.push(r.url())));
    await opened.page.locator(`${runForm} input[type="file"]`).setInputFiles(eleven);
    await runButton(opened.page).click();
    expect(await settledStatus(opened.page, runForm)).toBe('Please fix the steps marked above before running.');
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    expect(opened.errors).toEqual([]);
  });

  it('moves, duplicates and removes steps from the keyboard, the focus staying with the step', async () => {
    const { page, errors } = await site.open('/workflow-builder');
    for (const id of ['pdf-compress', 'rotate-pdf', 'pdf-unlock']) await addButton(page, id).click();
    await builder(page).getByRole('button', { name: 'Move Unlock PDF up', exact: true }).focus();
    await page.keyboard.press('Enter');
    expect(await steps(page)).toEqual(['Compress PDF', 'Unlock PDF', 'Rotate PDF']);
    // The focus followed the step: Enter again moves it once more.
    await page.keyboard.press('Enter');
    expect(await steps(page)).toEqual(['Unlock PDF', 'Compress PDF', 'Rotate PDF']);
    expect(await builder(page).locator('[role="status"].visually-hidden').textContent()).toBe(
      'Unlock PDF is now step 1 of 3.',
    );
    await setOption(page, 3, 'Rotation (clockwise)', '180', 'select');
    await builder(page).getByRole('button', { name: 'Duplicate Rotate PDF', exact: true }).focus();
    await page.keyboard.press('Enter');
    expect(await steps(page)).toEqual(['Unlock PDF', 'Compress PDF', 'Rotate PDF', 'Rotate PDF']);
    // The copy keeps its options.
    await step(page, 4).locator('details.step-options > summary').click();
    expect(await step(page, 4).getByLabel('Rotation (clockwise)', { exact: true }).inputValue()).toBe('180');
    await builder(page).getByRole('button', { name: 'Remove Compress PDF', exact: true }).click();
    expect(await steps(page)).toEqual(['Unlock PDF', 'Rotate PDF', 'Rotate PDF']);
    expect(errors).toEqual([]);
  });
});

describe('a four-step workflow with options', () => {
  it('runs Word to PDF, page numbers, a watermark and compression on a Word file, then loads from its link and its file', async () => {
    const { page, errors } = await site.open('/workflow-builder');
    await buildFourSteps(page);
    await page.locator(`${runForm} input[type="file"]`).setInputFiles(twelveDocx);
    // Every status the run shows, as it shows it.
    const status = JSON.stringify(`${runForm} .upload-status`);
    await page.evaluate(`(() => {
      const status = document.querySelector(${status});
      window.seen = [];
      new MutationObserver(() => window.seen.push(status.textContent ?? '')).observe(status, {
        childList: true, characterData: true, subtree: true,
      });
    })()`);
    await runButton(page).click();
    expect(await settledStatus(page, runForm, 180_000)).toBe('Done: your file went through 4 steps.');
    // A job: the step under way was named as it ran (Word to PDF alone takes seconds).
    const seen = (await page.evaluate('window.seen')) as string[];
    expect(
      seen.some((s) => /^Step [1-4] of 4: .+…$/.test(s)),
      seen.join(' | '),
    ).toBe(true);
    const result = await downloadResult(page, site.base, runForm);
    expect(result.name).toMatch(/\.pdf$/);
    expectFourStepResult(result.path);
    // The result card: what was checked at each step, by its tool.
    expect(await page.locator(`${runForm} .result .checks`).textContent()).toMatch(/^✔ /);
    const each = await page.locator(`${runForm} .result .checks li`).allTextContents();
    expect(each).toHaveLength(4);
    expect(each[0]).toMatch(/^Word to PDF: \S/);
    expect(each[3]).toMatch(/^Compress PDF: \S/);

    // Saved as a short link: another visitor opens the same steps with the same options.
    await builder(page).getByLabel('Workflow name', { exact: true }).fill('Draft for review');
    await builder(page).getByRole('button', { name: 'Save and get a link', exact: true }).click();
    const link = builder(page).getByLabel('Link to this workflow with its options:', { exact: true });
    await link.waitFor();
    const href = await link.inputValue();
    expect(href).toMatch(/\/workflow\/saved\/[A-Za-z0-9_-]{24}$/);
    const shared = await site.open(new URL(href).pathname);
    await shared.page.locator('ol.workflow-steps').waitFor();
    expect(await shared.page.locator('main h1').textContent()).toBe('Draft for review');
    expect(await steps(shared.page)).toEqual(['Word to PDF', 'Add Page Numbers', 'Add Watermark', 'Compress PDF']);
    await step(shared.page, 3).locator('details.step-options > summary').click();
    expect(await step(shared.page, 3).getByLabel('Watermark text', { exact: true }).inputValue()).toBe('QUIREMARK');

    // And as a file: downloaded here, loaded on a fresh builder.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      builder(page)
        .getByRole('link', { name: /Download as a file/ })
        .click(),
    ]);
    const saved = await file.path();
    const json = JSON.parse(readFileSync(saved, 'utf8')) as { name: string; steps: unknown[] };
    expect(json).toEqual({
      name: 'Draft for review',
      steps: [
        { tool: 'word-to-pdf' },
        { tool: 'add-page-numbers', options: { format: 'page-of-total' } },
        { tool: 'add-watermark', options: { text: 'QUIREMARK', position: 'center' } },
        { tool: 'pdf-compress', options: { level: 'extreme' } },
      ],
    });
    const fresh = await site.open('/workflow-builder');
    await fresh.page.locator('#workflow-load').setInputFiles(saved);
    await fresh.page.getByText('Loaded: Draft for review.').waitFor();
    expect(await steps(fresh.page)).toEqual(['Word to PDF', 'Add Page Numbers', 'Add Watermark', 'Compress PDF']);
    // The loaded workflow runs as the built one did.
    await fresh.page.locator(`${runForm} input[type="file"]`).setInputFiles(twelveDocx);
    await runButton(fresh.page).click();
    expect(await settledStatus(fresh.page, runForm, 180_000)).toBe('Done: your file went through 4 steps.');
    expectFourStepResult((await downloadResult(fresh.page, site.base, runForm)).path);

    // A file that is not a workflow is refused with the catalog's reason.
    await fresh.page.locator('#workflow-load').setInputFiles({
      name: 'bad.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ steps: [{ tool: 'pdf-split' }, { tool: 'pdf-compress' }] })),
    });
    await fresh.page.getByText(/^This file is not a workflow Quire can run\. Step 2/).waitFor();
    expect(await steps(fresh.page)).toEqual(['Word to PDF', 'Add Page Numbers', 'Add Watermark', 'Compress PDF']);
    expect([...errors, ...shared.errors, ...fresh.errors]).toEqual([]);
  });
});

describe('several files through a workflow whose first step takes one', () => {
  it('runs them as a batch job: a zip of each file’s result, each with the steps’ options applied', async () => {
    const small = join(corpusDir, 'pdf', 'pypdf-annotated.pdf');
    const { page, errors } = await site.open('/workflow-builder');
    await addButton(page, 'pdf-compress').click();
    await addButton(page, 'rotate-pdf').click();
    await setOption(page, 2, 'Rotation (clockwise)', '90', 'select');
    const jobs: string[] = [];
    page.on('request', (r) => void (r.method() === 'POST' && jobs.push(new URL(r.url()).pathname)));
    await page.locator(`${runForm} input[type="file"]`).setInputFiles([eleven, small]);
    expect((await page.locator(`${runForm} ol.file-list .file-name`).allTextContents()).length).toBe(2);
    await runButton(page).click();
    expect(await settledStatus(page, runForm, 180_000)).toBe('Done: 2 files went through 2 steps, in one zip.');
    expect(jobs).toContain('/api/v1/jobs');
    const result = await downloadResult(page, site.base, runForm);
    expect(result.name).toMatch(/\.zip$/);
    const dir = mkdtempSync(join(tmpdir(), 'wf-batch-'));
    execFileSync('unzip', ['-q', result.path, '-d', dir]);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      files: { file: string; outcome: string; result: string }[];
    };
    expect(report.files.map((f) => [f.file, f.outcome])).toEqual([
      ['qpdf-11-pages.pdf', 'ok'],
      ['pypdf-annotated.pdf', 'ok'],
    ]);
    const [first, second] = report.files.map((f) => join(dir, f.result));
    expect(pageCount(first!)).toBe(11);
    expect(rotations(first!)).toEqual(rotations(eleven).map((r) => (r + 90) % 360));
    expect(pageCount(second!)).toBe(pageCount(small));
    expect(rotations(second!)).toEqual(rotations(small).map((r) => (r + 90) % 360));
    expect(errors).toEqual([]);
  });
});

describe('the spec’s /workflow/{steps} address', () => {
  it('finds a run under way again after a reload, and shows how it ended', async () => {
    const { page, errors } = await site.open('/workflow/pdf-ocr,pdf-to-text');
    await page.locator(`${runForm} input[type="file"]`).setInputFiles([scan, scan]);
    await runButton(page).click();
    const underWay = `document.querySelectorAll('${runForm} .batch-row[data-state="queued"], ${runForm} .batch-row[data-state="processing"]').length > 0`;
    await waitUntil(page, underWay, 60_000, 'a batch row under way');
    await page.reload();
    await waitForHydration(page);
    expect(await settledStatus(page, runForm)).toBe('Done: 2 files went through 2 steps, in one zip.');
    expect(await page.locator(`${runForm} .batch-row[data-state="done"]`).count()).toBe(2);
    expect(errors).toEqual([]);
  });

  it('/workflow/pdf-compress,pdf-unlock shows those two steps and runs them', async () => {
    const { page, errors } = await site.open('/workflow/pdf-compress,pdf-unlock');
    expect(await page.locator('main h1').textContent()).toBe('Saved workflow');
    expect(await steps(page)).toEqual(['Compress PDF', 'Unlock PDF']);
    expect(
      await builder(page)
        .getByRole('link', { name: /Link to this workflow/ })
        .getAttribute('href'),
    ).toBe('/workflow/pdf-compress,pdf-unlock');
    await page.locator(`${runForm} input[type="file"]`).setInputFiles(eleven);
    await runButton(page).click();
    expect(await settledStatus(page, runForm)).toBe('Done: your file went through 2 steps.');
    const result = await downloadResult(page, site.base, runForm);
    expect(pageCount(result.path)).toBe(11);
    expect(words(text(result.path))).toEqual(words(text(eleven)));
    expect(errors).toEqual([]);
  });

  it('/workflow/saved/{id} for an id the server does not hold says so, and is not indexed', async () => {
    const { page, errors } = await site.open('/workflow/saved/AAAAAAAAAAAAAAAAAAAAAAAA');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('There is no saved workflow with this link.');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.locator('ol.workflow-steps').count()).toBe(0);
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });

  it('unknown and repeated ids in the address are dropped, without an error', async () => {
    const { page, errors, dialogs } = await site.open('/workflow/pdf-compress,nope,pdf-compress,%3Cscript%3E');
    expect(await steps(page)).toEqual(['Compress PDF']);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('on a phone', () => {
  it('builds, reorders with its buttons and sets options, nothing wider than the screen', async () => {
    const phone = { width: 390, height: 844 };
    const { page, errors } = await site.open('/workflow-builder', { viewport: phone });
    for (const id of ['word-to-pdf', 'add-page-numbers', 'pdf-compress']) await addButton(page, id).click();
    await builder(page).getByRole('button', { name: 'Move Compress PDF up', exact: true }).click();
    expect(await steps(page)).toEqual(['Word to PDF', 'Compress PDF', 'Add Page Numbers']);
    await setOption(page, 3, 'Format', 'roman-upper', 'select');
    await builder(page).getByRole('button', { name: 'Duplicate Add Page Numbers', exact: true }).click();
    expect(await steps(page)).toEqual(['Word to PDF', 'Compress PDF', 'Add Page Numbers', 'Add Page Numbers']);
    expect(await page.evaluate(`document.documentElement.scrollWidth`)).toBeLessThanOrEqual(phone.width);
    expect(errors).toEqual([]);
  });
});
