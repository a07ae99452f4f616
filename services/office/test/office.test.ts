/**
 * The office service in-process, with real LibreOffice (two warm listeners): every office document
 * of the shared corpus, Gotenberg's route driven by chromiumly (a Gotenberg client of its own), the
 * catalog tools through the kit, and the promises about linked content. Outputs are checked (pages,
 * text), never just the status.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Chromiumly, LibreOffice } from 'chromiumly';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type OfficeApp } from '../src/app.ts';
import {
  closeLeavingNothing,
  corpusDocuments,
  imageCount,
  office,
  overlap,
  pageSize,
  pdfPages,
  pdfText,
  postGotenberg,
  zipEntries,
  qpdfCheck,
  readText,
  recordingServer,
  rewriteZip,
  tempDir,
  words,
  writePng,
} from './helpers.ts';

const work = tempDir('office-work-');
const scratch = tempDir('office-scratch-');
let app: OfficeApp;
let server: Server;
let base: string;

beforeAll(async () => {
  process.env.WORK_DIR = work;
  app = createApp({ instances: 2, restartAfter: 0 });
  await app.engine.start();
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Chromiumly.configure({ endpoint: base });
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(scratch, { recursive: true, force: true });
  await closeLeavingNothing(app, work);
});

/** Posts files to the Gotenberg route and keeps the answer's bytes. */
const gotenberg = (files: string[], fields: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  postGotenberg(app, { files, fields, headers });

let saved = 0;
function save(bytes: Buffer, ext = 'pdf'): string {
  const path = join(scratch, `out-${++saved}.${ext}`);
  writeFileSync(path, bytes);
  return path;
}

/** What each corpus document must give: pages (when fixed by the document) and words in its text. */
const facts: Record<string, { pages?: number; minPages?: number; says?: string[] }> = {
  'gotenberg-Special_Chars_ß.docx': { pages: 1, says: ['page 1'] },
  'gotenberg-pages_12.docx': { pages: 12, says: ['page 1', 'page 12'] },
  'gotenberg-singlepagesheets-scrolled.xlsx': { minPages: 2, says: ['chunk type', 'chartextsplit'] },
  'gotenberg-slideshow.ppsx': { pages: 1, says: ['powerpoint show', 'converted by gotenberg'] },
  'jod-test.doc': { pages: 1, says: ['test document'] },
  'jod-test.docx': { pages: 1, says: ['test document'] },
  'jod-test.fodt': { pages: 1, says: ['test document'] },
  'jod-test.odt': { pages: 1, says: ['test document'] },
  'jod-test.rtf': { pages: 1, says: ['test document'] },
  'jod-test.sxw': { pages: 1, says: ['test document'] },
  'jod-test.odp': { pages: 1, says: ['test presentation'] },
  'jod-test.ppt': { pages: 1, says: ['test presentation'] },
  'jod-test.pptx': { pages: 1, says: ['test presentation'] },
  'jod-test.ods': { pages: 1, says: ['test spreadsheet'] },
  'jod-test.xls': { pages: 1, says: ['test spreadsheet'] },
  'jod-test.xlsx': { pages: 1, says: ['test spreadsheet'] },
  'jod-test_multi_page.doc': { minPages: 2, says: ['test document'] },
  'jod-test_multi_page.xls': { minPages: 2, says: ['sheet 1'] },
  'jod-test_toc.odt': { minPages: 5, says: ['guide', 'chapter name here'] },
  'jod-test_with_linked_images.odt': { minPages: 2, says: ['sandbox'] },
  'pypdf-libreoffice-form.odt': { pages: 1, says: ['first name', 'alice'] },
  'textract-paragraphs_and_tables.docx': { pages: 1 },
  'textract-raw_text.doc': { minPages: 1 },
  'textract-raw_text.odt': { pages: 1 },
  'textract-raw_text.pptx': { minPages: 1 },
  'textract-raw_text.xls': { minPages: 2 },
  'textract-raw_text.xlsx': { minPages: 2 },
};

/** Documents that need a password the corpus publishes (`user=` in MANIFEST.tsv), or keeps. */
const protectedDocs: Record<string, string | undefined> = {
  'gotenberg-protected_page_1.docx': 'foo',
  'jod-test_password.odt': undefined,
};

/**
 * The share of the ground truth's words a PDF must hold. Text documents and slides keep it all.
 * Spreadsheets print what a cell shows, as Excel does: long text is cut at the next filled cell, and
 * in these two files a HYPERLINK column that LibreOffice cannot compute prints Err:508 where the
 * ground truth has "<More Info>"; measured 0.84 (xls) and 0.78 (xlsx).
 */
const minOverlap = (file: string) => (/\.xlsx?$/.test(file) ? 0.75 : 0.95);

const phrase = (text: string, p: string) => words(text).join(' ').includes(words(p).join(' '));

describe('every office document of the corpus', () => {
  const documents = corpusDocuments();

  it('covers the whole folder', () => {
    expect(documents.length).toBeGreaterThanOrEqual(29);
    for (const f of documents) expect(f in facts || f in protectedDocs, f).toBe(true);
  });

  it.each(documents.filter((f) => !(f in protectedDocs)))('converts %s with its text', async (file) => {
    const { res, body } = await gotenberg([office(file)]);
    expect(res.status, body.toString().slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = save(body);
    expect([0, 3]).toContain(qpdfCheck(pdf));
    const fact = facts[file]!;
    const pages = pdfPages(pdf);
    if (fact.pages) expect(pages).toBe(fact.pages);
    expect(pages).toBeGreaterThanOrEqual(fact.minPages ?? 1);
    const text = pdfText(pdf);
    for (const p of fact.says ?? []) expect(phrase(text, p), `"${p}" in ${file}`).toBe(true);
    const truth = [`${file}.expected.txt`, file.replace(/\.[^.]+$/, '.expected.txt')].map(office).find(existsSync);
    if (truth) expect(overlap(readText(truth), text)).toBeGreaterThanOrEqual(minOverlap(file));
    else expect(fact.says?.length ?? 0, `${file} needs either ground truth or known words`).toBeGreaterThan(0);
  });

  it.each(Object.keys(protectedDocs))('asks for the password of %s, clearly', async (file) => {
    const { res, text } = await gotenberg([office(file)]);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(text).toMatch(/is password-protected\. Provide its password in the 'password' form field/);
  });

  it('opens the protected docx with its password, and says when a password is wrong', async () => {
    const { res, body } = await gotenberg([office('gotenberg-protected_page_1.docx')], { password: 'foo' });
    expect(res.status).toBe(200);
    const pdf = save(body);
    expect(pdfPages(pdf)).toBe(1);
    expect(phrase(pdfText(pdf), 'page 1')).toBe(true);
    const wrong = await gotenberg([office('gotenberg-protected_page_1.docx')], { password: 'bar' });
    expect(wrong.res.status).toBe(400);
    expect(wrong.text).toMatch(/password for the document .* is incorrect/);
    const odt = await gotenberg([office('jod-test_password.odt')], { password: 'not-it' });
    expect(odt.res.status).toBe(400);
    expect(odt.text).toMatch(/password for the document .* is incorrect/);
  });

  it('refuses a password for a document that has none, as Gotenberg does (Bad Request)', async () => {
    const { res, text } = await gotenberg([office('jod-test.docx')], { password: 'foo' });
    expect(res.status).toBe(400);
    expect(text).toBe("The document 'jod-test.docx' is not password-protected. Remove the 'password' form field.");
  });
});

describe("Gotenberg's LibreOffice route, driven by chromiumly", () => {
  it.each([
    ['jod-test.docx', 'test document'],
    ['jod-test.xlsx', 'test spreadsheet'],
    ['jod-test.pptx', 'test presentation'],
    ['jod-test.odt', 'test document'],
    ['jod-test.rtf', 'test document'],
    ['jod-test.doc', 'test document'],
    ['jod-test.xls', 'test spreadsheet'],
    ['jod-test.ppt', 'test presentation'],
  ])('converts %s', async (file, says) => {
    const pdf = save(await LibreOffice.convert({ files: [office(file)] }));
    expect(pdfPages(pdf)).toBe(1);
    expect(phrase(pdfText(pdf), says)).toBe(true);
  });

  it('merges several documents in name order, or zips them', async () => {
    const files = [office('jod-test.odt'), office('gotenberg-pages_12.docx')];
    // chromiumly names them file01.odt and file02.docx: the order sent.
    const merged = save(await LibreOffice.convert({ files, merge: true }));
    expect(pdfPages(merged)).toBe(13);
    expect(phrase(pdfText(merged).split('\f')[0]!, 'test document')).toBe(true);
    const zipped = save(await LibreOffice.convert({ files }), 'zip');
    const entries = await zipEntries(zipped);
    expect(entries.map((e) => e.name)).toEqual(['file01.odt.pdf', 'file02.docx.pdf']);
    expect(entries.map((e) => pdfPages(save(e.data)))).toEqual([1, 12]);
  });

  it('takes page ranges, landscape and the password as Gotenberg does', async () => {
    const part = save(
      await LibreOffice.convert({
        files: [office('gotenberg-pages_12.docx')],
        properties: { nativePageRanges: { from: 2, to: 3 } },
      }),
    );
    expect(pdfPages(part)).toBe(2);
    expect(words(pdfText(part))).toEqual(['page', '2', 'page', '3']);
    const portrait = pageSize(save(await LibreOffice.convert({ files: [office('jod-test.docx')] })));
    const landscape = pageSize(
      save(await LibreOffice.convert({ files: [office('jod-test.docx')], properties: { landscape: true } })),
    );
    expect(portrait.height).toBeGreaterThan(portrait.width);
    expect(landscape.width).toBeGreaterThan(landscape.height);
    const sheet = pageSize(
      save(await LibreOffice.convert({ files: [office('jod-test.xlsx')], properties: { landscape: true } })),
    );
    expect(sheet.width).toBeGreaterThan(sheet.height);
    const opened = save(
      await LibreOffice.convert({
        files: [office('gotenberg-protected_page_1.docx')],
        properties: { password: 'foo' },
      }),
    );
    expect(phrase(pdfText(opened), 'page 1')).toBe(true);
  });

  it("reports Gotenberg's errors as Gotenberg does, which chromiumly passes on", async () => {
    await expect(LibreOffice.convert({ files: [office('gotenberg-protected_page_1.docx')] })).rejects.toThrow(
      /Status: 400[\s\S]*is password-protected/,
    );
    await expect(
      LibreOffice.convert({
        files: [office('gotenberg-pages_12.docx')],
        properties: { nativePageRanges: { from: 20, to: 30 } },
      }),
    ).rejects.toThrow(/Status: 400[\s\S]*nativePageRanges/);
  });

  it('echoes the trace, names the output as asked, and answers in plain text when the form is wrong', async () => {
    const ok = await gotenberg(
      [office('jod-test.docx')],
      {},
      { 'Gotenberg-Trace': 'trace-123', 'Gotenberg-Output-Filename': '../../secret/report' },
    );
    expect(ok.res.status).toBe(200);
    expect(ok.res.headers['gotenberg-trace']).toBe('trace-123');
    expect(ok.res.headers['x-request-id']).toBe('trace-123');
    expect(ok.res.headers['content-disposition']).toMatch(/^attachment; filename="?report\.pdf"?$/);
    const cases: [Promise<{ res: request.Response; text: string }>, number, RegExp][] = [
      [gotenberg([], { merge: 'false' }), 400, /^Invalid form data: no form file found for extensions: \[\.123 /],
      [
        gotenberg([office('jod-test.docx')], { landscape: 'maybe' }),
        400,
        /form field 'landscape' is invalid \(got 'maybe', resulting to strconv\.ParseBool/,
      ],
      [
        gotenberg([office('jod-test.docx')], { quality: '500' }),
        400,
        /form field 'quality' is invalid \(got '500', resulting to value is superior to 100\)/,
      ],
      [
        gotenberg([office('jod-test.docx')], { nativePageRanges: 'one-two' }),
        400,
        /^LibreOffice could not apply the page ranges 'one-two' to the document 'jod-test\.docx'\. Check the 'nativePageRanges' form field/,
      ],
      [
        gotenberg([office('jod-test.docx')], { pdfa: 'PDF/A-9z' }),
        400,
        /^The PDF format 'PDF\/A-9z' is not supported\. Valid formats include PDF\/A-1b, PDF\/A-2b, PDF\/A-3b, and PDF\/UA\.$/,
      ],
    ];
    for (const [call, status, text] of cases) {
      const r = await call;
      expect(r.res.status).toBe(status);
      expect(r.res.headers['content-type']).toMatch(/^text\/plain/);
      expect(r.text).toMatch(text);
    }
    const json = await request(app).post('/forms/libreoffice/convert').send({ files: [] });
    expect(json.status).toBe(415);
    expect(json.text).toBe("Invalid 'Content-Type' header value: want 'multipart/form-data'");
  });

  it('judges files by content, not by their names', async () => {
    const fake = join(scratch, 'not-a-document.docx');
    writeFileSync(fake, 'just some words, not a document\n');
    const r = await gotenberg([fake]);
    expect(r.res.status).toBe(415);
    expect(r.text).toMatch(/not-a-document\.docx/);
    // A real document under a wrong name still converts as what it is.
    const renamed = join(scratch, 'actually-a-spreadsheet.docx');
    writeFileSync(renamed, readFileSync(office('jod-test.xls')));
    const ok = await gotenberg([renamed]);
    expect(ok.res.status).toBe(200);
    expect(phrase(pdfText(save(ok.body)), 'test spreadsheet')).toBe(true);
  });

  it('reads UTF-8 file names as UTF-8', async () => {
    const r = await gotenberg([office('gotenberg-Special_Chars_ß.docx'), office('jod-test.odt')]);
    expect(r.res.status).toBe(200);
    const names = (await zipEntries(save(r.body, 'zip'))).map((e) => e.name);
    expect(names).toEqual(['gotenberg-Special_Chars_ß.docx.pdf', 'jod-test.odt.pdf']);
  });

  it('answers /health and /version as Gotenberg, and exposes the queue and restarts to Prometheus', async () => {
    const health = await request(app).get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'up', details: { libreoffice: { status: 'up' } } });
    expect(Date.parse(health.body.details.libreoffice.timestamp)).not.toBeNaN();
    const version = await request(app).get('/version');
    expect(version.text).toMatch(/^8\.36\.0-quire\.[\d.]+\+libreoffice\.7\.[\d.]+$/);
    const metrics = await request(app).get('/prometheus/metrics');
    for (const name of [
      'quire_queue_size',
      'gotenberg_libreoffice_requests_queue_size',
      'gotenberg_libreoffice_restarts_count',
      'quire_engine_restarts_total{engine="libreoffice",reason="after_jobs"',
      'quire_office_listeners_ready',
    ]) {
      expect(metrics.text).toContain(name);
    }
    expect(metrics.text).toMatch(/quire_office_listeners_ready\{[^}]*\} 2/);
  });
});

describe('the catalog tools, through the kit', () => {
  async function tool(id: string, file: string, fields: Record<string, string> = {}) {
    let req = request(app).post(`/tools/${id}`).attach('file', file);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return req.buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  }

  it.each([
    ['word-to-pdf', 'textract-paragraphs_and_tables.docx', 'paragraph before the table'],
    ['word-to-pdf', 'textract-raw_text.odt', 'sample oppenoffice writer file'],
    ['word-to-pdf', 'jod-test.rtf', 'test document'],
    ['excel-to-pdf', 'jod-test.xlsx', 'test spreadsheet'],
    ['excel-to-pdf', 'jod-test.ods', 'test spreadsheet'],
    ['ppt-to-pdf', 'textract-raw_text.pptx', 'i love powerpoint'],
    ['ppt-to-pdf', 'jod-test.odp', 'test presentation'],
    ['ppt-to-pdf', 'gotenberg-slideshow.ppsx', 'powerpoint show'],
  ])('%s converts %s', async (id, file, says) => {
    const res = await tool(id, office(file));
    expect(res.status, (res.body as Buffer).toString().slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(decodeURIComponent(res.headers['x-quire-output-name']!)).toBe(file.replace(/\.[^.]+$/, '.pdf'));
    const pdf = save(res.body as Buffer);
    const properties = JSON.parse(res.headers['x-quire-properties']!) as { pages: number; checks: string[] };
    expect(properties.pages).toBe(pdfPages(pdf));
    expect(properties.checks).toEqual(['opens', 'pages']);
    expect(phrase(pdfText(pdf), says)).toBe(true);
  });

  it('answers a protected document with password_required, and a document of the wrong kind with unsupported_type', async () => {
    const locked = await request(app).post('/tools/word-to-pdf').attach('file', office('jod-test_password.odt'));
    expect(locked.status).toBe(400);
    expect(locked.body.error).toEqual({
      code: 'password_required',
      message: 'This document is protected. Please enter its password.',
    });
    const sheet = await request(app).post('/tools/word-to-pdf').attach('file', office('jod-test.xlsx'));
    expect(sheet.status).toBe(415);
    expect(sheet.body.error.code).toBe('unsupported_type');
    // An encrypted Word document (an OLE2 envelope) is let through to LibreOffice, which opens it with its password.
    const envelope = office('gotenberg-protected_page_1.docx');
    const asked = await request(app).post('/tools/word-to-pdf').attach('file', envelope);
    expect(asked.body.error?.code).toBe('password_required');
    const wrong = await request(app).post('/tools/word-to-pdf').attach('file', envelope).field('password', 'bar');
    expect(wrong.body.error?.code).toBe('wrong_password');
    const opened = await tool('word-to-pdf', envelope, { password: 'foo' });
    expect(opened.status).toBe(200);
    expect(phrase(pdfText(save(opened.body as Buffer)), 'page 1')).toBe(true);
  });

  // The kit's upload check tells OLE2 (doc, xls, ppt), CSV and flat ODF apart by looking inside.
  it.each([
    ['word-to-pdf', 'textract-raw_text.doc', 'i love word documents'],
    ['word-to-pdf', 'jod-test.fodt', 'test document'],
    ['excel-to-pdf', 'jod-test.xls', 'test spreadsheet'],
    ['excel-to-pdf', 'formulas.csv', 'alice 007'],
    ['ppt-to-pdf', 'jod-test.ppt', 'test presentation'],
  ])('%s takes %s, judged by content', async (id, file, says) => {
    const path = file.endsWith('.csv') ? join(scratch, file) : office(file);
    if (file.endsWith('.csv')) writeFileSync(path, 'name,code\nAlice,007\nBob,0012\n');
    const res = await tool(id, path);
    expect(res.status, (res.body as Buffer).toString().slice(0, 300)).toBe(200);
    expect(phrase(pdfText(save(res.body as Buffer)), says)).toBe(true);
  });
});

describe('linked content is never fetched, macros never run', () => {
  it('leaves the corpus ODT with linked images unfetched, over the network or from disk', async () => {
    const web = await recordingServer();
    try {
      // The corpus file links ../pdf2137720158525786849.png; a copy links the image on our
      // listener instead, another an image file on disk.
      const png = join(scratch, 'linked.png');
      writePng(png);
      const overHttp = join(scratch, 'linked-http.odt');
      const fromDisk = join(scratch, 'linked-file.odt');
      const link = 'xlink:href="../pdf2137720158525786849.png"';
      await rewriteZip(office('jod-test_with_linked_images.odt'), overHttp, 'content.xml', (x) =>
        x.replace(link, `xlink:href="${web.url}/linked.png"`),
      );
      await rewriteZip(office('jod-test_with_linked_images.odt'), fromDisk, 'content.xml', (x) =>
        x.replace(link, `xlink:href="file://${png}"`),
      );
      await expect(readZipText(overHttp, 'content.xml')).resolves.toContain(`${web.url}/linked.png`);
      for (const file of [office('jod-test_with_linked_images.odt'), overHttp, fromDisk]) {
        const { res, body } = await gotenberg([file]);
        expect(res.status).toBe(200);
        const pdf = save(body);
        expect(phrase(pdfText(pdf), 'sandbox')).toBe(true);
        // Only the image embedded in the document is drawn.
        expect(imageCount(pdf)).toBe(1);
      }
      expect(web.requests).toEqual([]);
    } finally {
      await web.close();
    }
  });

  it('keeps linked sections, WEBSERVICE() and CSV formulas from reaching anything', async () => {
    const web = await recordingServer();
    try {
      const secret = join(scratch, 'secret.txt');
      writeFileSync(secret, 'TOPSECRETWORD\n');
      const sections = join(scratch, 'sections.fodt');
      writeFileSync(
        sections,
        `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text><text:p>before</text:p>
<text:section text:name="S1"><text:section-source xlink:href="file://${secret}" xlink:type="simple" text:filter-name="Text"/><text:p>placeholder one</text:p></text:section>
<text:section text:name="S2"><text:section-source xlink:href="${web.url}/section.txt" xlink:type="simple"/><text:p>placeholder two</text:p></text:section>
<text:p>after</text:p></office:text></office:body></office:document>`,
      );
      const webservice = join(scratch, 'webservice.fods');
      writeFileSync(
        webservice,
        `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet><table:table table:name="S"><table:table-row>
<table:table-cell office:value-type="string"><text:p>hello</text:p></table:table-cell>
<table:table-cell table:formula="of:=COM.MICROSOFT.WEBSERVICE(&quot;${web.url}/ws&quot;)"/>
</table:table-row></table:table></office:spreadsheet></office:body></office:document>`,
      );
      const csv = join(scratch, 'formulas.csv');
      writeFileSync(csv, `name,code,formula\nAlice,007,=1+1\nBob,0012,"=WEBSERVICE(""${web.url}/csv"")"\n`);

      const s = await gotenberg([sections]);
      expect(s.res.status).toBe(200);
      const sText = pdfText(save(s.body));
      expect(sText).toContain('placeholder one');
      expect(sText).toContain('placeholder two');
      expect(sText).not.toContain('TOPSECRETWORD');

      const w = await gotenberg([webservice]);
      expect(w.res.status).toBe(200);
      expect(pdfText(save(w.body))).toContain('hello');

      const c = await gotenberg([csv]);
      expect(c.res.status).toBe(200);
      const cText = pdfText(save(c.body));
      // Every CSV value prints as written: no formula evaluated, no number reformatted.
      for (const v of ['007', '0012', '=1+1', `=WEBSERVICE("${web.url}/csv")`]) expect(cText).toContain(v);

      expect(web.requests).toEqual([]);
    } finally {
      await web.close();
    }
  });
});

async function readZipText(path: string, name: string): Promise<string> {
  const entry = (await zipEntries(path)).find((e) => e.name === name);
  return entry?.data.toString('utf8') ?? '';
}
