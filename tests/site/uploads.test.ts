/**
 * Uploads through the page, as a visitor makes them: choose files, set options, press Convert, wait
 * for 'Success', then fetch the linked result at once (results live 5 s in the test stack) and check
 * the file itself. One tool per service, the password flow, the error texts of the contract, and a
 * result carried into the next tool.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { useBrowser } from '../lib/browser.ts';
import { corpusDir, corpusFiles } from '../lib/corpus.ts';
import { isEncrypted, pageCount, qpdfCheck, rotations, text, words } from '../lib/pdf.ts';
import { downloadResult, renderDistance, renderPage, settledStatus } from './site.ts';

const pdf = (name: string) => join(corpusDir, 'pdf', name);
const eleven = pdf('qpdf-11-pages.pdf');
const four = pdf('pypdf-pdflatex-4-pages.pdf');
const scratch = mkdtempSync(join(tmpdir(), 'site-uploads-'));

// A test that failed before done() leaves its page open: useBrowser closes it after the test.
const site = useBrowser();
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

async function toolPage(id: string): Promise<Page> {
  return (await site.open(`/tools/${id}`)).page;
}

/** Closes the test's page; a console error on the way fails the test. */
async function done(expectedErrors: RegExp[] = []) {
  const o = site.current!;
  await o.close();
  expect(o.errors.filter((e) => !expectedErrors.some((re) => re.test(e)))).toEqual([]);
}

/** Each page's size in points, rounded, as a reader shows it (its rotation applied). */
function pageSizes(path: string): number[][] {
  const out = execFileSync('pdfinfo', ['-f', '1', '-l', '100000', path]).toString();
  const rot = rotations(path);
  return [...out.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m, i) => {
    const size = [Math.round(Number(m[1])), Math.round(Number(m[2]))];
    return rot[i]! % 180 === 0 ? size : size.reverse();
  });
}

const widget = (page: Page) => page.locator('.widget');
const fileNames = (page: Page) => widget(page).locator('.file-list .file-name').allTextContents();

/** Presses the widget's submit button and returns the status it settles on. */
async function convert(page: Page, button = 'Convert'): Promise<string> {
  await widget(page).getByRole('button', { name: button, exact: true }).click();
  return settledStatus(page);
}

/** After success: 'Success', a result link, and no progress bar (it shows only below 100). */
async function expectSuccess(page: Page, status: string) {
  expect(status).toBe('Success');
  expect(await widget(page).locator('.result a').count()).toBe(1);
  expect(await widget(page).locator('progress').count()).toBe(0);
}

describe('pdf-editor: pdf-merge', () => {
  it('merges two PDFs in the listed order, and the ↑/↓ buttons change that order', async () => {
    const page = await toolPage('pdf-merge');
    await widget(page).locator('input[type="file"]').setInputFiles([eleven, four]);
    expect(await fileNames(page)).toEqual(['qpdf-11-pages.pdf', 'pypdf-pdflatex-4-pages.pdf']);
    await expectSuccess(page, await convert(page));
    const first = await downloadResult(page, site.base);
    expect(qpdfCheck(first.path)).toBe(0);
    expect(pageCount(first.path)).toBe(11 + 4);
    expect(words(text(first.path, { first: 1, last: 1 }))).toEqual(words(text(eleven, { first: 1, last: 1 })));

    // Move the 4-page file up: the order changes, and the old result goes (a change clears it).
    await widget(page).getByRole('button', { name: 'Move pypdf-pdflatex-4-pages.pdf up' }).click();
    expect(await fileNames(page)).toEqual(['pypdf-pdflatex-4-pages.pdf', 'qpdf-11-pages.pdf']);
    expect(await widget(page).locator('.result a').count()).toBe(0);
    expect(await widget(page).locator('.upload-status').textContent()).toBe('');
    // ↓ moves it back, and ↑ again: the buttons go both ways.
    await widget(page).getByRole('button', { name: 'Move pypdf-pdflatex-4-pages.pdf down' }).click();
    expect(await fileNames(page)).toEqual(['qpdf-11-pages.pdf', 'pypdf-pdflatex-4-pages.pdf']);
    await widget(page).getByRole('button', { name: 'Move qpdf-11-pages.pdf down' }).click();
    expect(await fileNames(page)).toEqual(['pypdf-pdflatex-4-pages.pdf', 'qpdf-11-pages.pdf']);

    await expectSuccess(page, await convert(page));
    const second = await downloadResult(page, site.base);
    expect(pageCount(second.path)).toBe(15);
    expect(words(text(second.path, { first: 1, last: 1 }))).toEqual(words(text(four, { first: 1, last: 1 })));
    expect(words(text(second.path, { first: 5, last: 5 }))).toEqual(words(text(eleven, { first: 1, last: 1 })));
    await done();
  });
});

describe('image: jpg-to-pdf', () => {
  it('makes one page per image, on the page size chosen', async () => {
    const page = await toolPage('jpg-to-pdf');
    const images = ['pillow-hopper.jpg', 'sharp-Landscape_1.jpg', 'sharp-Portrait_6.jpg'];
    await widget(page)
      .locator('input[type="file"]')
      .setInputFiles(images.map((f) => join(corpusDir, 'images', f)));
    expect(await fileNames(page)).toEqual(images);
    await widget(page).getByLabel('Page size').selectOption({ label: 'A4' });
    await expectSuccess(page, await convert(page));
    const result = await downloadResult(page, site.base);
    expect(result.name).toMatch(/\.pdf$/);
    expect(qpdfCheck(result.path)).toBe(0);
    expect(pageCount(result.path)).toBe(3);
    for (const size of pageSizes(result.path)) expect([...size].sort((a, b) => a - b)).toEqual([595, 842]);
    await done();
  });
});

describe('office: word-to-pdf', () => {
  it('turns a .docx into a PDF with the document text', async () => {
    const page = await toolPage('word-to-pdf');
    const docx = join(corpusDir, 'office', 'textract-paragraphs_and_tables.docx');
    await widget(page).locator('input[type="file"]').setInputFiles(docx);
    await expectSuccess(page, await convert(page));
    const result = await downloadResult(page, site.base);
    expect([0, 3]).toContain(qpdfCheck(result.path));
    expect(pageCount(result.path)).toBeGreaterThanOrEqual(1);
    const got = words(text(result.path)).join(' ');
    expect(got).toContain('This is the paragraph before the table. It should appear first.');
    expect(got).toContain('This is the paragraph after the table. It should appear last.');
    expect(got).toContain('INNER TABLE!');
    await done();
  });
});

describe('renderer', () => {
  it('html-to-pdf prints an HTML file with its page breaks and text, in landscape when asked', async () => {
    const page = await toolPage('html-to-pdf');
    await widget(page)
      .locator('input[type="file"]')
      .setInputFiles(join(corpusDir, 'html', 'gotenberg-pages-12.html'));
    await widget(page).getByLabel('Landscape').check();
    await expectSuccess(page, await convert(page));
    const result = await downloadResult(page, site.base);
    expect(pageCount(result.path)).toBe(12);
    for (const [width, height] of pageSizes(result.path)) expect(width).toBeGreaterThan(height!);
    expect(words(text(result.path, { first: 1, last: 1 }))).toEqual(['Page', '1']);
    expect(words(text(result.path, { first: 12, last: 12 }))).toEqual(['Page', '12']);
    await done();
  });

  it('pdf-from-url with a local address shows the url_blocked message and no result', async () => {
    const page = await toolPage('pdf-from-url');
    await page.getByLabel('Web address').fill('http://127.0.0.1/');
    const status = await convert(page);
    expect(status).toBe('This address cannot be opened: it points to a private or forbidden place.');
    expect(await widget(page).locator('.result a').count()).toBe(0);
    expect(await widget(page).locator('progress').count()).toBe(0);
    // The refusal is a 403 the browser logs as a failed resource; nothing else may be logged.
    await done([/Failed to load resource: the server responded with a status of 403/]);
  });
});

describe('pdf-extract: pdf-to-text', () => {
  it('gives the text of the PDF', async () => {
    const page = await toolPage('pdf-to-text');
    await widget(page).locator('input[type="file"]').setInputFiles(pdf('textract-raw_text.pdf'));
    await expectSuccess(page, await convert(page));
    const result = await downloadResult(page, site.base);
    expect(result.name).toMatch(/\.txt$/);
    const got = words(readFileSync(result.path, 'utf8')).join(' ');
    for (const phrase of ['I love word documents.', 'Sample text is hard.', 'Semiotics church-key VHS']) {
      expect(got).toContain(phrase);
    }
    await done();
  });
});

describe('password flow', () => {
  it('pdf-unlock shows its password field from the start, refuses a wrong one, and gives an unencrypted result', async () => {
    const encrypted = corpusFiles().find((f) => f.file === 'pdf-encrypted/pdfminer-aes-128.pdf')!;
    expect(encrypted.userPassword).toBeTruthy();
    const page = await toolPage('pdf-unlock');
    // Unlocking is about protected PDFs: the field is there before any file or attempt.
    const field = widget(page).getByLabel('PDF password');
    expect(await field.getAttribute('type')).toBe('password');
    expect(
      await widget(page).locator('.hint', { hasText: 'Only if the PDF asks for a password to open.' }).count(),
    ).toBe(1);
    await widget(page).locator('input[type="file"]').setInputFiles(encrypted.path);
    expect(await field.count()).toBe(1);

    expect(await convert(page)).toBe('This PDF is protected. Please enter its password.');
    expect(await widget(page).locator('.result a').count()).toBe(0);

    await field.fill('not-the-password');
    expect(await convert(page)).toBe('The password is not correct. Please try again.');

    await field.fill(encrypted.userPassword!);
    await expectSuccess(page, await convert(page));
    // The field stays for the next file; the button keeps its name.
    expect(await field.count()).toBe(1);
    expect(await widget(page).getByRole('button', { name: 'Convert', exact: true }).count()).toBe(1);
    const result = await downloadResult(page, site.base);
    expect(isEncrypted(result.path)).toBe(false);
    expect(qpdfCheck(result.path)).toBe(0);
    expect(pageCount(result.path)).toBe(pageCount(encrypted.path, encrypted.userPassword));
    expect(words(text(result.path))).toEqual(words(text(encrypted.path, { password: encrypted.userPassword })));
    // The protected answers are 400s the browser logs as failed resources.
    await done([/Failed to load resource: the server responded with a status of 400/]);
  });

  it('protect-pdf hides the new passwords as they are typed, asks for one, and gives a PDF only it opens', async () => {
    const page = await toolPage('protect-pdf');
    const open = widget(page).getByLabel('Password to open the PDF');
    const owner = widget(page).getByLabel('Owner password, to change the permissions (optional)');
    for (const field of [open, owner]) {
      expect(await field.getAttribute('type')).toBe('password');
      expect(await field.getAttribute('autocomplete')).toBe('new-password');
    }
    expect(await open.getAttribute('required')).not.toBeNull();
    await widget(page).locator('input[type="file"]').setInputFiles(eleven);
    // Without the password to open the PDF, the server names the option; the page says it by its label.
    expect(await convert(page)).toBe('Password to open the PDF: please fill in or correct this field.');
    await open.fill('site test secret');
    await widget(page).getByLabel('Allow copying text and images').uncheck();
    await expectSuccess(page, await convert(page));
    expect(await widget(page).locator('.checks').textContent()).toContain('it opens only with your password');
    const result = await downloadResult(page, site.base);
    expect(isEncrypted(result.path)).toBe(true);
    expect(qpdfCheck(result.path)).not.toBe(0); // it does not open without the password
    expect(qpdfCheck(result.path, 'site test secret')).toBe(0);
    expect(words(text(result.path, { password: 'site test secret' }))).toEqual(words(text(eleven)));
    await done([/Failed to load resource: the server responded with a status of 400/]);
  });

  it('word-to-pdf asks for the password of a protected Word file, then converts it', async () => {
    const locked = corpusFiles().find((f) => f.file === 'office/gotenberg-protected_page_1.docx')!;
    expect(locked.userPassword).toBeTruthy();
    const page = await toolPage('word-to-pdf');
    await widget(page).locator('input[type="file"]').setInputFiles(locked.path);
    expect(await widget(page).getByLabel('Document password').count()).toBe(0);

    expect(await convert(page)).toBe('This document is protected. Please enter its password.');
    const field = widget(page).getByLabel('Document password');
    expect(await field.getAttribute('type')).toBe('password');
    expect(await widget(page).getByLabel('PDF password').count()).toBe(0);

    await field.fill('not-the-password');
    expect(await convert(page, 'Open and convert')).toBe('The password is not correct. Please try again.');

    await field.fill(locked.userPassword!);
    await expectSuccess(page, await convert(page, 'Open and convert'));
    expect(await widget(page).getByLabel('Document password').count()).toBe(0);
    const result = await downloadResult(page, site.base);
    expect(result.name).toMatch(/\.pdf$/);
    expect(qpdfCheck(result.path)).toBe(0);
    expect(pageCount(result.path)).toBe(1);
    expect(words(text(result.path)).join(' ').toLowerCase()).toContain('page 1');
    await done([/Failed to load resource: the server responded with a status of 400/]);
  });
});

describe('error texts', () => {
  it('a file over the upload limit shows the file_too_large message', async () => {
    const big = join(scratch, 'big.pdf');
    const bytes = Buffer.alloc((inject('uploadLimitMb') + 1) * 1024 * 1024, 0x20);
    bytes.write('%PDF-1.4\n');
    writeFileSync(big, bytes);
    const page = await toolPage('pdf-compress');
    await widget(page).locator('input[type="file"]').setInputFiles(big);
    expect(await convert(page)).toBe('The file is too large. Please choose a smaller file.');
    expect(await widget(page).locator('.result a').count()).toBe(0);
    expect(await widget(page).locator('progress').count()).toBe(0);
    await done([/Failed to load resource: the server responded with a status of 413/]);
  });

  it('a file that is not a PDF on pdf-compress shows the unsupported_type message, naming the file', async () => {
    const page = await toolPage('pdf-compress');
    await widget(page)
      .locator('input[type="file"]')
      .setInputFiles(join(corpusDir, 'images', 'pillow-hopper.jpg'));
    expect(await convert(page)).toBe(
      '\u2068pillow-hopper.jpg\u2069 is of type \u2068JPEG\u2069; Compress PDF takes \u2068PDF\u2069.',
    );
    expect(await widget(page).locator('.result a').count()).toBe(0);
    await done([/Failed to load resource: the server responded with a status of 415/]);
  });
});

describe('What can I do next?', () => {
  /**
   * Runs rotate-pdf on the 4-page file and follows 'Compress the result for smaller size', noting every
   * result the pages fetch themselves (the carried file) and every answer they get.
   */
  async function rotateThenCompress(page: Page) {
    const fetched: string[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'fetch' && new URL(r.url()).pathname.startsWith('/uploads/')) {
        fetched.push(`${r.status()} ${new URL(r.url()).pathname}`);
      }
    });
    await widget(page).locator('input[type="file"]').setInputFiles(four);
    await expectSuccess(page, await convert(page));
    const rotated = await downloadResult(page, site.base);
    const href = (await widget(page).locator('.result a').getAttribute('href'))!;
    await page.getByRole('link', { name: 'Compress the result for smaller size', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Convert with Compress PDF', exact: true }).waitFor();
    await widget(page).locator('.file-list .file-name').waitFor();
    return { rotated, href, fetched };
  }

  it('carries a rotate-pdf result into Compress PDF, which converts it without a new upload', async () => {
    const page = await toolPage('rotate-pdf');
    const { rotated, href, fetched } = await rotateThenCompress(page);
    expect(page.url()).toBe(`${site.base}/tools/pdf-compress`);
    expect(await widget(page).locator('.note').textContent()).toBe('Your result from the previous tool is ready here.');
    expect(await fileNames(page)).toEqual([rotated.name.replace(/^[0-9a-f]{32}-/, '')]);
    // The file listed is the rotate result itself, fetched by the page from its download link (as its
    // first page's picture on the result card is).
    expect(fetched.length).toBeGreaterThan(0);
    expect(new Set(fetched)).toEqual(new Set([`200 ${href}`]));
    expect(await widget(page).locator('.upload-status').textContent()).toBe('');

    await expectSuccess(page, await convert(page));
    const result = await downloadResult(page, site.base);
    expect(result.name).not.toBe(rotated.name);
    expect(pageCount(result.path)).toBe(4);
    expect(words(text(result.path))).toEqual(words(text(rotated.path)));
    // A carried file is used once: the note goes when the visitor picks a file of their own.
    await widget(page).locator('input[type="file"]').setInputFiles(eleven);
    expect(await fileNames(page)).toEqual(['qpdf-11-pages.pdf']);
    expect(await widget(page).locator('.note').count()).toBe(0);
    await done();
  });

  it('offers a Word result to Word to PDF, which converts it without a new upload; Merge would not take it', async () => {
    const page = await toolPage('pdf-to-word');
    const next = page.locator('section[aria-labelledby="next"]');
    await widget(page).locator('input[type="file"]').setInputFiles(four);
    await expectSuccess(page, await convert(page));
    const docx = await downloadResult(page, site.base);
    expect(docx.name).toMatch(/\.docx$/);
    // The spec's three links stay; the note says they take PDFs; the tools that take Word are offered.
    expect(await next.locator('ul.next-steps li').count()).toBe(3);
    expect((await next.locator('.next-note').allTextContents()).map((s) => s.trim())).toEqual([
      'These take PDF files, so they open without your Word result.',
      'Tools that take your Word result:',
    ]);
    expect(
      await next.locator('.next-tools a').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).toEqual(['/tools/word-to-pdf']);
    await next.getByRole('link', { name: 'Word to PDF' }).click();
    await page.getByRole('heading', { level: 1, name: 'Convert with Word to PDF', exact: true }).waitFor();
    await widget(page).locator('.file-list .file-name').waitFor();
    expect(await fileNames(page)).toEqual([docx.name.replace(/^[0-9a-f]{32}-/, '')]);
    expect(await widget(page).locator('.note').textContent()).toBe('Your result from the previous tool is ready here.');
    await expectSuccess(page, await convert(page));
    const back = await downloadResult(page, site.base);
    expect(pageCount(back.path)).toBeGreaterThanOrEqual(1);
    // The words of the original came through PDF to Word and back.
    const got = new Set(words(text(back.path)));
    const original = words(text(four, { first: 1, last: 1 })).filter((w) => w.length >= 5);
    expect(original.filter((w) => got.has(w)).length / original.length).toBeGreaterThan(0.8);
    await done();
  });

  it('a PDF result offers the other PDF tools too, each taking it along', async () => {
    const page = await toolPage('pdf-compress');
    await widget(page).locator('input[type="file"]').setInputFiles(four);
    await expectSuccess(page, await convert(page));
    const next = page.locator('section[aria-labelledby="next"]');
    expect((await next.locator('.next-note').allTextContents()).map((s) => s.trim())).toEqual([
      'Each link takes your result along: no new upload.',
      'Tools that take your PDF result:',
    ]);
    const offered = await next
      .locator('.next-tools a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')!.slice('/tools/'.length)));
    expect(offered).toEqual(expect.arrayContaining(['pdf-split', 'rotate-pdf', 'pdf-ocr', 'add-watermark']));
    for (const id of ['pdf-compress', 'pdf-merge', 'pdf-unlock', 'word-to-pdf']) expect(offered).not.toContain(id);
    await next.getByRole('link', { name: 'Split PDF' }).click();
    await page.getByRole('heading', { level: 1, name: 'Convert with Split PDF', exact: true }).waitFor();
    await widget(page).locator('.file-list .file-name').waitFor();
    expect(await widget(page).locator('.note').textContent()).toBe('Your result from the previous tool is ready here.');
    await done();
  });

  // Site bug (services/pdf-editor/src/tools/pdf-compress/index.ts): Ghostscript's pdfwrite turns pages by the
  // direction of their text (AutoRotatePages defaults to /PageByPage for the /ebook and /screen presets),
  // so compressing a result of Rotate PDF turns its pages back. Needs -dAutoRotatePages=/None.
  it('a rotated result keeps its orientation through Compress PDF', async () => {
    const page = await toolPage('rotate-pdf');
    const { rotated } = await rotateThenCompress(page);
    expect(rotations(rotated.path)).toEqual(rotations(four).map((r) => (r + 90) % 360));
    await expectSuccess(page, await convert(page));
    const result = await downloadResult(page, site.base);
    for (const n of [1, 2, 3, 4]) {
      expect(renderDistance(renderPage(result.path, n), renderPage(rotated.path, n)), `page ${n}`).toBeLessThan(5);
    }
    await done();
  });
});
