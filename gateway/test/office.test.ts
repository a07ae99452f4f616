/**
 * Word, Excel and PowerPoint through the gateway, with Quire's office service as its own process
 * (real LibreOffice): the contract's `/tools/:id` like every other service, so what the service
 * checked reaches the client; and, when OFFICE_URL names an official Gotenberg, its adapter.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus, download, makeGateway } from './helpers.ts';
import { gotenbergInFrontOf, startOfficeService, type RunningService } from './office-service.ts';

const office = (name: string) => join(corpus, 'office', name);
let service: RunningService;

beforeAll(async () => {
  service = await startOfficeService();
});

afterAll(async () => {
  await service?.stop();
});

/** Downloads a stored result and reads its pages and words with qpdf and Poppler. */
async function result(app: Parameters<typeof request>[0], name: string, dir: string) {
  const body = await download(app, name);
  const path = join(dir, 'result.pdf');
  writeFileSync(path, body);
  const pages = Number(execFileSync('qpdf', ['--show-npages', path]).toString().trim());
  const text = execFileSync('pdftotext', ['-q', path, '-']).toString().toLowerCase().split(/\W+/).join(' ');
  return { pages, text, bytes: body.length };
}

describe("Quire's office service, by the contract", () => {
  it('passes on what the service checked of the result, and its page count, as for every tool', async () => {
    const { app, dataDir } = await makeGateway({ OFFICE_URL: service.url });
    const res = await request(app).post('/api.php?tool=word-to-pdf').attach('file', office('gotenberg-pages_12.docx'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.download).toMatch(/^[0-9a-f]{32}-gotenberg-pages_12\.pdf$/);
    const pdf = await result(app, res.body.download, dataDir);
    expect(pdf.pages).toBe(12);
    expect(pdf.text).toContain('page 12');
    expect(res.body.properties).toEqual({ bytes: pdf.bytes, pages: 12, format: 'docx', checks: ['opens', 'pages'] });
  });

  it('reads spreadsheets and presentations, and gives the password to a protected document', async () => {
    const { app } = await makeGateway({ OFFICE_URL: service.url });
    const sheet = await request(app).post('/api/v1/tools/excel-to-pdf').attach('file', office('jod-test.xls'));
    expect(sheet.status, JSON.stringify(sheet.body)).toBe(200);
    expect(sheet.body.properties).toMatchObject({ pages: 1, format: 'xls', checks: ['opens', 'pages'] });
    const locked = office('gotenberg-protected_page_1.docx');
    const asked = await request(app).post('/api.php?tool=word-to-pdf').attach('file', locked);
    expect(asked.status).toBe(400);
    expect(asked.body.error.code).toBe('password_required');
    const wrong = await request(app).post('/api.php?tool=word-to-pdf').attach('file', locked).field('password', 'bar');
    expect(wrong.body.error.code).toBe('wrong_password');
    const opened = await request(app).post('/api.php?tool=word-to-pdf').attach('file', locked).field('password', 'foo');
    expect(opened.status).toBe(200);
    expect(opened.body.properties).toMatchObject({ pages: 1, checks: ['opens', 'pages'] });
  });
});

describe('an official Gotenberg behind OFFICE_URL', () => {
  it('is told by its /version and called on its own route, its answers read as the contract says', async () => {
    const gotenberg = await gotenbergInFrontOf(service.url);
    try {
      const { app, dataDir } = await makeGateway({ OFFICE_URL: gotenberg.url });
      const res = await request(app)
        .post('/api.php?tool=word-to-pdf')
        .attach('file', office('gotenberg-pages_12.docx'));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.download).toMatch(/-gotenberg-pages_12\.pdf$/);
      const pdf = await result(app, res.body.download, dataDir);
      expect(pdf.pages).toBe(12);
      expect(pdf.text).toContain('page 12');
      // Gotenberg says nothing of the result: the adapter counts its pages, and no checks are claimed.
      expect(res.body.properties).toEqual({ bytes: pdf.bytes, pages: 12 });

      // A document named for another kind is sent under the name of what it is.
      const renamed = join(dataDir, 'slides.docx');
      copyFileSync(office('jod-test.pptx'), renamed);
      const slides = await request(app).post('/api.php?tool=ppt-to-pdf').attach('file', renamed);
      expect(slides.status, JSON.stringify(slides.body)).toBe(200);
      expect((await result(app, slides.body.download, dataDir)).text).toContain('test presentation');

      const locked = office('gotenberg-protected_page_1.docx');
      const asked = await request(app).post('/api.php?tool=word-to-pdf').attach('file', locked);
      expect(asked.body.error).toEqual({
        code: 'password_required',
        message: 'This document is protected. Please enter its password.',
      });
      const wrong = await request(app)
        .post('/api.php?tool=word-to-pdf')
        .attach('file', locked)
        .field('password', 'bar');
      expect(wrong.body.error.code).toBe('wrong_password');

      // Asked once which it is; every call after goes to Gotenberg's route, none to the contract's.
      expect(gotenberg.paths.filter((p) => p === 'GET /version')).toHaveLength(1);
      expect(gotenberg.paths.filter((p) => p.startsWith('POST /tools/'))).toEqual([]);
      expect(gotenberg.paths.filter((p) => p === 'POST /forms/libreoffice/convert')).toHaveLength(4);
    } finally {
      await gotenberg.stop();
    }
  });
});
