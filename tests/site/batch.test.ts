/**
 * Batches on a tool page: several files dropped on a single-file tool go as one job, each file in a row
 * of its own (a broken one failed with its reason), its own download, and the zip of all with its report;
 * a running batch is found again after a reload, and Cancel stops it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser, waitForHydration, waitUntil } from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { download } from '../lib/http.ts';
import { pageCount, rotations } from '../lib/pdf.ts';
import { unzip } from '../lib/zip.ts';
import { downloadResult, settledStatus } from './site.ts';

const eleven = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');
const four = join(corpusDir, 'pdf', 'pypdf-pdflatex-4-pages.pdf');
const empty = join(corpusDir, 'pdf-broken', 'pdfplumber-zero-byte.pdf');
const scan = join(corpusDir, 'pdf', 'textract-ocr_text-scanned.pdf');
const scratch = mkdtempSync(join(tmpdir(), 'site-batch-'));

const site = useBrowser();

const widget = (page: Page) => page.locator('.widget');
const rows = (page: Page) => widget(page).locator('.batch-row');

/** Each row's file name and state, in order. */
async function rowStates(page: Page): Promise<[string, string][]> {
  const all = await rows(page).all();
  return Promise.all(
    all.map(async (row) => [
      ((await row.locator('.batch-file').textContent()) ?? '').trim(),
      (await row.getAttribute('data-state')) ?? '',
    ]),
  );
}

/** Until a row of the batch says the job has it (queued or under way): the job exists. */
const jobHolds = (page: Page) =>
  waitUntil(
    page,
    `document.querySelectorAll('.widget .batch-row[data-state="queued"], .widget .batch-row[data-state="processing"]').length > 0`,
    60_000,
    'a batch row queued or processing',
  );

describe('batches on a tool page', () => {
  it('takes three files as one job: two done with their own downloads, the broken one failed with its reason, and the zip', async () => {
    const { page, errors } = await site.open('/tools/rotate-pdf');
    const input = widget(page).locator('input[type=file]');
    expect(await input.getAttribute('multiple')).not.toBeNull();
    await input.setInputFiles([eleven, empty, four]);
    await widget(page).getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Done: 2 of 3 files converted.');
    expect(await rowStates(page)).toEqual([
      ['qpdf-11-pages.pdf', 'done'],
      ['pdfplumber-zero-byte.pdf', 'failed'],
      ['pypdf-pdflatex-4-pages.pdf', 'done'],
    ]);
    expect(await rows(page).nth(1).locator('.batch-error').textContent()).toBe(
      'The file is empty (0 bytes). Please choose the file again.',
    );
    expect(await rows(page).nth(0).locator('.batch-state').textContent()).toBe('Done · 11 pages');
    // Each file that succeeded downloads on its own, rotated, with its pages.
    const own = await rows(page).nth(2).getByRole('link').getAttribute('href');
    const res = await fetch(`${site.base}${own}`);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const third = join(scratch, 'third.pdf');
    writeFileSync(third, Buffer.from(await res.arrayBuffer()));
    expect(pageCount(third)).toBe(4);
    expect(rotations(third).every((r) => r === 90)).toBe(true);
    expect(await rows(page).nth(1).getByRole('link').count()).toBe(0);
    // A small image of each result's first page, drawn: the rotated page is wider than tall.
    const preview = rows(page).nth(2).getByRole('img', { name: 'First page of the result' });
    await preview.waitFor();
    await waitUntil(
      page,
      `document.querySelector('.batch-row:nth-child(3) .result-preview img')?.naturalWidth > 0`,
      60_000,
      'the preview drawn',
    );
    const width = Number(await preview.getAttribute('width'));
    const height = Number(await preview.getAttribute('height'));
    expect(width).toBeGreaterThan(height);
    expect(await rows(page).nth(1).locator('.result-preview').count()).toBe(0);

    // Download all: the zip holds both results and the report.
    const all = await widget(page).getByRole('link', { name: '⬇ Download all (zip)' }).getAttribute('href');
    expect(all).toMatch(/^\/uploads\/[0-9a-f]{32}-rotate-pdf-results\.zip$/);
    const { path } = await download(site.base, decodeURIComponent(all!.slice('/uploads/'.length)));
    const dir = unzip(path);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      files: { file: string; outcome: string; result?: string; error?: { code: string } }[];
    };
    expect(report.files.map((f) => [f.file, f.outcome])).toEqual([
      ['qpdf-11-pages.pdf', 'ok'],
      ['pdfplumber-zero-byte.pdf', 'failed'],
      ['pypdf-pdflatex-4-pages.pdf', 'ok'],
    ]);
    expect(report.files[1]!.error?.code).toBe('empty_file');
    expect(pageCount(join(dir, report.files[0]!.result!))).toBe(11);
    expect(readFileSync(join(dir, report.files[2]!.result!))).toEqual(readFileSync(third));
    expect(errors).toEqual([]);
  });

  it('keeps one file on the synchronous call: its result card, no rows', async () => {
    const { page } = await site.open('/tools/pdf-compress');
    await widget(page).locator('input[type=file]').setInputFiles([eleven]);
    await widget(page).getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    expect(await rows(page).count()).toBe(0);
    const summary = (await widget(page).locator('.result .result-summary').textContent()) ?? '';
    expect(summary).toMatch(/^Size: [\d.]+ kB → [\d.]+ kB \(\d+% smaller\)$/);
    // The result's first page, upright (a portrait page), without pages: the sizes say what changed.
    const preview = widget(page).getByRole('img', { name: 'First page of the result' });
    await preview.waitFor();
    expect(Number(await preview.getAttribute('height'))).toBeGreaterThan(Number(await preview.getAttribute('width')));
    expect(await widget(page).locator('.result .result-preview figcaption').count()).toBe(0);
  });

  it('runs one scan through OCR as a job: the pages read told as they go, then its result card', async () => {
    const { page, errors } = await site.open('/tools/pdf-ocr');
    // The three-page scan four times over: long enough to see its pages counted while they are read.
    const twelve = join(scratch, 'twelve.pdf');
    execFileSync('qpdf', ['--empty', '--pages', scan, '1-3', scan, '1-3', scan, '1-3', scan, '1-3', '--', twelve]);
    await widget(page).locator('input[type=file]').setInputFiles([twelve]);
    await widget(page).getByRole('button', { name: 'Convert', exact: true }).click();
    await waitUntil(
      page,
      `/^Working: ([1-9]|1[01]) of 12 pages done…$/.test(document.querySelector('.widget .upload-status')?.textContent ?? '')`,
      90_000,
      'pages counted while they are read',
    );
    expect(await settledStatus(page)).toBe('Success');
    expect(await rows(page).count()).toBe(0);
    const { path } = await downloadResult(page, site.base);
    expect(pageCount(path)).toBe(12);
    expect(execFileSync('pdftotext', ['-q', '-f', '12', '-l', '12', path, '-']).toString()).toMatch(/[A-Za-z]{4,}/);
    expect(errors).toEqual([]);
  });

  it('stops an upload that is still going when Cancel is pressed, and keeps no job', async () => {
    const { page, errors } = await site.open('/tools/pdf-ocr');
    // The upload is held at the door until Cancel has been pressed, then dropped: it never reaches the server.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let arrived = 0;
    await page.route('**/api/v1/jobs?*', async (route) => {
      arrived++;
      await held;
      await route.abort().catch(() => undefined);
    });
    await widget(page).locator('input[type=file]').setInputFiles([scan]);
    await widget(page).getByRole('button', { name: 'Convert', exact: true }).click();
    for (let i = 0; i < 100 && arrived === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await widget(page).locator('.upload-status').textContent()).toBe('Working…');
    await widget(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await settledStatus(page)).toBe('Cancelled: no result was kept.');
    release();
    expect(arrived).toBe(1);
    expect(await page.evaluate(`sessionStorage.getItem('quire:job:pdf-ocr')`)).toBeNull();
    expect(await widget(page).getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    expect(await widget(page).getByRole('button', { name: 'Convert', exact: true }).isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('finds a running batch again after a reload, and Cancel stops it', async () => {
    const { page, errors } = await site.open('/tools/pdf-ocr');
    await widget(page).locator('input[type=file]').setInputFiles([scan, scan, scan, scan]);
    await widget(page).getByRole('button', { name: 'Convert', exact: true }).click();
    await jobHolds(page);
    const id = (await page.evaluate(`sessionStorage.getItem('quire:job:pdf-ocr')`)) as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);

    await page.reload();
    await waitForHydration(page);
    await jobHolds(page);
    expect((await rowStates(page)).map(([file]) => file)).toEqual(Array(4).fill('textract-ocr_text-scanned.pdf'));

    await widget(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await settledStatus(page)).toBe('Cancelled: no result was kept.');
    const job = (await (await fetch(`${site.base}/api/v1/jobs/${id}`)).json()) as { state: string };
    expect(job.state).toBe('cancelled');
    expect((await rowStates(page)).map(([, state]) => state)).toEqual(Array(4).fill('cancelled'));
    expect(await widget(page).getByRole('link', { name: '⬇ Download all (zip)' }).count()).toBe(0);
    expect(await widget(page).getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('cancels a running batch when other files are chosen instead', async () => {
    const { page, errors } = await site.open('/tools/pdf-ocr');
    const input = widget(page).locator('input[type=file]');
    await input.setInputFiles([scan, scan, scan]);
    await widget(page).getByRole('button', { name: 'Convert', exact: true }).click();
    await jobHolds(page);
    const id = (await page.evaluate(`sessionStorage.getItem('quire:job:pdf-ocr')`)) as string;
    await input.setInputFiles([four]);
    const state = async () =>
      ((await (await fetch(`${site.base}/api/v1/jobs/${id}`)).json()) as { state: string }).state;
    for (let i = 0; i < 100 && (await state()) !== 'cancelled'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await state()).toBe('cancelled');
    expect(await page.evaluate(`sessionStorage.getItem('quire:job:pdf-ocr')`)).toBeNull();
    expect(errors).toEqual([]);
  });
});
