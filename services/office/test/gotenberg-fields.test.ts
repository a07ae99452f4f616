/**
 * Gotenberg 8.36's LibreOffice route, field by field, against the real service (LibreOffice running):
 * the scenarios of Gotenberg's own test/integration/features/libreoffice_convert.feature that apply
 * to this route, each checking the output itself (qpdf, pdfinfo, pdftotext), through chromiumly,
 * supertest and plain curl as in Gotenberg's documentation.
 */
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Chromiumly, LibreOffice } from 'chromiumly';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerificationError } from '@quire/pdf';
import { createApp, type OfficeApp } from '../src/app.ts';
import { toGotenbergError } from '../src/gotenberg/errors.ts';
import {
  closeLeavingNothing,
  office,
  pdfPages,
  pdfText,
  postGotenberg,
  rewriteZip,
  tempDir,
  words,
  zipEntries,
} from './helpers.ts';

const work = tempDir('office-fields-work-');
const scratch = tempDir('office-fields-scratch-');
let app: OfficeApp;
let server: Server;
let base: string;

beforeAll(async () => {
  process.env.WORK_DIR = work;
  app = createApp({ instances: 1, restartAfter: 0 });
  await app.engine.start();
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Chromiumly.configure({ endpoint: base });
}, 120_000);

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await closeLeavingNothing(app, work);
});

let saved = 0;
function save(bytes: Buffer, ext = 'pdf'): string {
  const path = join(scratch, `out-${++saved}.${ext}`);
  writeFileSync(path, bytes);
  return path;
}

const curl = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('curl', args, { encoding: 'utf8' }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });
const pdfinfo = (path: string, ...args: string[]) => run('pdfinfo', [...args, path]).stdout;
/** qpdf --requires-password: 0 a password is needed, 2 not encrypted, 3 encrypted but opens without one. */
const requiresPassword = (path: string) => run('qpdf', ['--requires-password', path]).status;
const pages12 = office('gotenberg-pages_12.docx');
const docx = office('jod-test.docx');
const post = (
  fields: Record<string, string | string[]>,
  files = [docx],
  other: [string, string][] = [],
  headers = {},
) => postGotenberg(app, { files, fields, other, headers });

describe('encryption', () => {
  it('locks the PDF with the user password (Encrypt - user password only)', async () => {
    const pdf = save(await LibreOffice.convert({ files: [docx], userPassword: 'secret' }));
    expect(requiresPassword(pdf)).toBe(0);
    expect(run('qpdf', ['--show-encryption', '--password=secret', pdf]).stdout).toMatch(/R = 6/);
  });

  it('opens as owner with the owner password, and withholds the permissions asked (Encrypt - both)', async () => {
    const r = await post({ userPassword: 'foo', ownerPassword: 'bar', allowPrinting: 'false', allowCopying: 'false' });
    expect(r.res.status).toBe(200);
    const pdf = save(r.body);
    expect(requiresPassword(pdf)).toBe(0);
    const asUser = run('qpdf', ['--show-encryption', '--password=foo', pdf]).stdout;
    expect(asUser).toMatch(/print high resolution: not allowed/);
    expect(asUser).toMatch(/extract for any purpose: not allowed/);
    expect(asUser).toMatch(/modify annotations: allowed/);
    expect(run('qpdf', ['--show-encryption', '--password=bar', pdf]).stdout).toMatch(
      /Supplied password is owner password/,
    );
  });

  it('restricts a PDF anyone may open with an owner password alone', async () => {
    const r = await post({ ownerPassword: 'bar', allowModifying: 'false' });
    expect(r.res.status).toBe(200);
    const pdf = save(r.body);
    expect(requiresPassword(pdf)).toBe(3);
    expect(run('qpdf', ['--show-encryption', pdf]).stdout).toMatch(/modify other: not allowed/);
  });

  it('refuses restrictions without a password, and PDF/A with encryption', async () => {
    const restricted = await post({ allowPrinting: 'false' });
    expect(restricted.res.status).toBe(400);
    expect(restricted.text).toBe(
      "Invalid form data: permission restrictions require a 'userPassword' or 'ownerPassword'",
    );
    const pdfa = await post({ pdfa: 'PDF/A-2b', userPassword: 'x' });
    expect(pdfa.res.status).toBe(400);
    expect(pdfa.text).toBe('Invalid form data: PDF/A format is incompatible with encryption');
  });
});

describe('metadata, flatten, rotation, embeds, native watermarks', () => {
  it('writes the metadata asked (Metadata)', async () => {
    const metadata = {
      Author: 'Zebra Author',
      Creator: 'Gotenberg',
      Keywords: ['first', 'second'],
      CreateDate: '2006-09-18T16:27:50-04:00',
      Producer: 'Gotenberg',
      Subject: 'Sample',
      Title: 'Sample',
      Trapped: 'Unknown',
    };
    const pdf = save(await LibreOffice.convert({ files: [docx], metadata }));
    const info = pdfinfo(pdf);
    expect(info).toMatch(/^Author:\s+Zebra Author$/m);
    expect(info).toMatch(/^Title:\s+Sample$/m);
    expect(info).toMatch(/^Subject:\s+Sample$/m);
    expect(info).toMatch(/^Keywords:\s+first, second$/m);
    expect(info).toMatch(/^Creator:\s+Gotenberg$/m);
    expect(info).toMatch(/^Producer:\s+Gotenberg$/m);
    expect(pdfinfo(pdf, '-isodates')).toMatch(/^CreationDate:\s+2006-09-18T16:27:50-04/m);
    const bad = await post({ metadata: 'foo' });
    expect(bad.res.status).toBe(400);
    expect(bad.text).toMatch(
      /^Invalid form data: form field 'metadata' is invalid \(got 'foo', resulting to unmarshal metadata: /,
    );
  });

  it("writes the metadata into PDF/A's XMP too, so that the two agree, keeping its identification", async () => {
    const metadata = JSON.stringify({
      Author: 'Zebra & Co',
      Title: 'Sample <1>',
      ModDate: '2006-09-18T16:27:50-04:00',
    });
    const r = await post({ pdfa: 'PDF/A-2b', metadata });
    expect(r.res.status, r.text).toBe(200);
    const pdf = save(r.body);
    expect(pdfinfo(pdf)).toMatch(/^Author:\s+Zebra & Co$/m);
    const xmp = xmpOf(pdf)!;
    expect(pdfaPart(pdf)).toBe('2');
    expect(xmp).toMatch(/<dc:creator><rdf:Seq><rdf:li>Zebra &amp; Co<\/rdf:li><\/rdf:Seq><\/dc:creator>/);
    expect(xmp).toMatch(/<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Sample &lt;1&gt;<\/rdf:li>/);
    expect(xmp).toContain('<xmp:ModifyDate>2006-09-18T16:27:50-04:00</xmp:ModifyDate>');
    // What LibreOffice wrote and the client did not change is still said once, as in the information.
    expect(xmp.match(/<pdf:Producer>/g)).toHaveLength(1);
    expect(xmp.match(/<dc:creator>/g)).toHaveLength(1);
    expect(xmp).toMatch(new RegExp(`<pdf:Producer>${/^Producer:\s+(.+)$/m.exec(pdfinfo(pdf))![1]}</pdf:Producer>`));
  });

  it('flattens form fields into the pages (Flatten)', async () => {
    const form = office('pypdf-libreoffice-form.odt');
    const fields = save((await post({ exportFormFields: 'true' }, [form])).body);
    expect(pdfinfo(fields)).toMatch(/^Form:\s+AcroForm$/m);
    const flat = save((await post({ exportFormFields: 'true', flatten: 'true' }, [form])).body);
    expect(pdfinfo(flat)).toMatch(/^Form:\s+none$/m);
  });

  it('turns pages (Rotate 90), attaches files (Embeds) and draws native watermarks', async () => {
    const embed = join(scratch, 'embed_1.xml');
    writeFileSync(embed, '<invoice>1</invoice>\n');
    const r = await post({ rotateAngle: '90', nativeWatermarkText: 'CONFIDENTIAL' }, [docx], [['embeds', embed]]);
    expect(r.res.status).toBe(200);
    const pdf = save(r.body);
    expect(pdfinfo(pdf)).toMatch(/^Page rot:\s+90$/m);
    expect(run('qpdf', ['--list-attachments', pdf]).stdout).toMatch(/^embed_1\.xml ->/m);
    expect(pdfText(pdf)).toContain('CONFIDENTIAL');
    const tiled = save((await post({ nativeTiledWatermarkText: 'DRAFTMARK' })).body);
    // Tiled marks run across the page, their letters read one per line: the mark's start, many times over.
    expect(pdfText(tiled).replace(/\s+/g, '').split('DRA').length).toBeGreaterThan(3);
  });
});

describe('split and PDF/A', () => {
  it('cuts a document into intervals, zipped under its name (Split Intervals)', async () => {
    const zip = save(await LibreOffice.convert({ files: [pages12], split: { mode: 'intervals', span: '5' } }), 'zip');
    const entries = await zipEntries(zip);
    expect(entries.map((e) => e.name)).toEqual(['file01.docx_0.pdf', 'file01.docx_1.pdf', 'file01.docx_2.pdf']);
    expect(entries.map((e) => pdfPages(save(e.data)))).toEqual([5, 5, 2]);
    expect(words(pdfText(save(entries[2]!.data)))).toEqual(['page', '11', 'page', '12']);
  });

  it('takes the pages asked one PDF each, or all in one (Split Pages, Split Pages & Unify)', async () => {
    const r = await post({ splitMode: 'pages', splitSpan: '11-' }, [pages12]);
    expect(r.res.headers['content-type']).toBe('application/zip');
    const entries = await zipEntries(save(r.body, 'zip'));
    expect(entries.map((e) => e.name)).toEqual(['gotenberg-pages_12.docx_0.pdf', 'gotenberg-pages_12.docx_1.pdf']);
    expect(words(pdfText(save(entries[1]!.data)))).toEqual(['page', '12']);
    const unified = await post({ splitMode: 'pages', splitSpan: '2-3', splitUnify: 'true' }, [pages12]);
    expect(unified.res.headers['content-type']).toBe('application/pdf');
    expect(unified.res.headers['content-disposition']).toMatch(/filename="?gotenberg-pages_12\.docx\.pdf"?$/);
    expect(words(pdfText(save(unified.body)))).toEqual(['page', '2', 'page', '3']);
  });

  it('merges, then splits (Merge & Split)', async () => {
    const r = await post({ merge: 'true', splitMode: 'intervals', splitSpan: '7' }, [docx, pages12]);
    const entries = await zipEntries(save(r.body, 'zip'));
    expect(entries.map((e) => e.name)).toEqual(['merged_0.pdf', 'merged_1.pdf']);
    expect(entries.map((e) => pdfPages(save(e.data)))).toEqual([7, 6]);
  });

  it('writes the PDF/A identification, also into split parts (PDF/A-1b & PDF/UA-1, Split & PDF/A-1b)', async () => {
    const pdf = save(await LibreOffice.convert({ files: [docx], pdfa: 'PDF/A-1b' as never, pdfUA: true }));
    expect(pdfinfo(pdf)).toMatch(/^Tagged:\s+yes$/m);
    const r = await post({ pdfa: 'PDF/A-2b', splitMode: 'intervals', splitSpan: '6' }, [pages12]);
    const parts = await zipEntries(save(r.body, 'zip'));
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(pdfaPart(save(part.data))).toBe('2');
  });

  it("refuses a split it cannot make with Gotenberg's words", async () => {
    const cases: [Record<string, string>, string][] = [
      [
        { splitMode: 'foo', splitSpan: '2' },
        "Invalid form data: form field 'splitMode' is invalid (got 'foo', resulting to wrong value, expected either 'intervals' or 'pages')",
      ],
      [
        { splitMode: 'intervals', splitSpan: 'foo' },
        `Invalid form data: form field 'splitSpan' is invalid (got 'foo', resulting to strconv.Atoi: parsing "foo": invalid syntax)`,
      ],
      [
        { splitMode: 'pages', splitSpan: 'foo' },
        "The requested split mode is not supported, or no PDF engine could process it. Valid modes: 'intervals', 'pages'.",
      ],
    ];
    for (const [fields, message] of cases) {
      const r = await post(fields, [pages12]);
      expect(r.res.status).toBe(400);
      expect(r.text).toBe(message);
    }
  });
});

/** The catalog's XMP metadata, if any. */
function xmpOf(path: string): string | undefined {
  const catalog = run('qpdf', ['--show-object=trailer', path]).stdout;
  const root = /\/Root (\d+) 0 R/.exec(catalog)?.[1];
  const meta = /\/Metadata (\d+) 0 R/.exec(run('qpdf', [`--show-object=${root}`, path]).stdout)?.[1];
  return meta && run('qpdf', [`--show-object=${meta}`, '--filtered-stream-data', path]).stdout;
}

/** The part of PDF/A its XMP metadata claims (pdfaid:part). */
function pdfaPart(path: string): string | undefined {
  return /pdfaid:part(?:>|=")(\d)/.exec(xmpOf(path) ?? '')?.[1];
}

/** The content streams of a page, in order, as qpdf decodes them. */
function pageStreams(path: string, page = 1): string[] {
  const pages = JSON.parse(run('qpdf', ['--json=2', '--json-key=pages', path]).stdout) as {
    pages: { contents: string[] }[];
  };
  return pages.pages[page - 1]!.contents.map(
    (ref) => run('qpdf', [`--show-object=${ref.split(' ')[0]}`, '--filtered-stream-data', path]).stdout,
  );
}

/** The share of a page's pixels in a colour, at 36 dpi. */
function colourShare(path: string, page: number, isColour: (r: number, g: number, b: number) => boolean): number {
  const ppm = spawnSync('pdftoppm', ['-r', '36', '-f', String(page), '-l', String(page), path]).stdout;
  const [w, h] = ppm.toString('latin1', 0, 40).split(/\s+/).slice(1, 3).map(Number) as [number, number];
  const start = ppm.length - w * h * 3;
  let n = 0;
  for (let i = 0; i < w * h; i++)
    if (isColour(ppm[start + i * 3]!, ppm[start + i * 3 + 1]!, ppm[start + i * 3 + 2]!)) n++;
  return n / (w * h);
}

const red = (r: number, g: number, b: number) => r > 200 && g < 80 && b < 80;
const inked = (r: number, g: number, b: number) => r + g + b < 600;

describe("watermarks under the content, stamps over it (pdfcpu's fields, drawn by pdf-lib)", () => {
  it("draws a text watermark under every page's content (Watermark - Text)", async () => {
    const r = await post({ watermarkSource: 'text', watermarkExpression: 'CONFIDENTIAL' });
    expect(r.res.status, r.text).toBe(200);
    const pdf = save(r.body);
    expect(pdfText(pdf)).toContain('CONFIDENTIAL');
    expect(pdfText(pdf)).toContain(
      pdfText(save((await post({})).body))
        .trim()
        .split('\n')[0]!
        .trim(),
    );
    // Its marked text is the first content stream: drawn before, and so under, the page's own.
    const streams = pageStreams(pdf);
    expect(streams[0]).toMatch(/\/Span <<[^>]*ActualText/);
    expect(streams.slice(1).join('')).not.toMatch(/ActualText/);
  });

  it('draws a text stamp over the pages asked, with its options (Stamp - Text)', async () => {
    const options = JSON.stringify({ opacity: '1', rotation: '0', points: '48', fillcolor: '#FF0000' });
    const r = await post({ stampSource: 'text', stampExpression: 'DRAFT', stampOptions: options, stampPages: '1' });
    expect(r.res.status, r.text).toBe(200);
    const pdf = save(r.body);
    expect(pdfText(pdf)).toContain('DRAFT');
    expect(pageStreams(pdf).at(-1)).toMatch(/ActualText/);
    expect(colourShare(pdf, 1, red)).toBeGreaterThan(0.002);
    const plain = save((await post({})).body);
    expect(colourShare(plain, 1, red)).toBe(0);
  });

  it('draws an image watermark and a PDF stamp from their files, and several of each in order', async () => {
    const png = office('../images/pillow-exif_imagemagick_orientation.png');
    const plain = save((await post({})).body);
    const r = await post(
      { watermarkSource: 'image', stampSource: 'pdf' },
      [docx],
      [
        ['watermark', png],
        ['stamp', plain],
      ],
    );
    expect(r.res.status, r.text).toBe(200);
    const pdf = save(r.body);
    expect(colourShare(pdf, 1, inked)).toBeGreaterThan(colourShare(plain, 1, inked) + 0.02);
    const two = await post({ stampSource: ['text', 'text'], stampExpression: ['FIRST', 'SECOND'] });
    expect(two.res.status, two.text).toBe(200);
    const both = pdfText(save(two.body));
    expect(both).toContain('FIRST');
    expect(both).toContain('SECOND');
  });

  it('draws marks on PDF/A with their fonts embedded, and much else at once (PDF/A-3b & PDF/UA-1 & Metadata & Watermark & Stamp & Rotate & Flatten & Embeds)', async () => {
    const embed = join(scratch, 'invoice.xml');
    writeFileSync(embed, '<invoice>1</invoice>\n');
    const r = await post(
      {
        pdfa: 'PDF/A-3b',
        pdfua: 'true',
        metadata: JSON.stringify({ Author: 'Julien Neuhart' }),
        watermarkSource: 'text',
        watermarkExpression: 'CONFIDENTIAL',
        stampSource: 'text',
        stampExpression: 'DRAFT',
        stampOptions: JSON.stringify({ opacity: '0.5' }),
        rotateAngle: '90',
        flatten: 'true',
      },
      [docx],
      [['embeds', embed]],
    );
    expect(r.res.status, r.text).toBe(200);
    const pdf = save(r.body);
    expect(pdfaPart(pdf)).toBe('3');
    expect(pdfText(pdf)).toContain('CONFIDENTIAL');
    expect(pdfText(pdf)).toContain('DRAFT');
    expect(pdfinfo(pdf)).toMatch(/^Page rot:\s+90$/m);
    expect(pdfinfo(pdf)).toMatch(/^Author:\s+Julien Neuhart$/m);
    expect(run('qpdf', ['--list-attachments', pdf]).stdout).toMatch(/^invoice\.xml ->/m);
    // Every font embedded, the marks' own included.
    const fonts = run('pdffonts', [pdf]).stdout.split('\n').slice(2).filter(Boolean);
    expect(fonts.some((f) => /Liberation/.test(f))).toBe(true);
    for (const f of fonts) expect(f, f).toMatch(/\byes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/);
  });

  it('refuses what it cannot draw, naming the field (Bad Request)', async () => {
    const cases: [Record<string, string>, string | RegExp, [string, string][]?][] = [
      [
        { watermarkSource: 'foo' },
        "Invalid form data: form field 'watermarkSource' is invalid (got 'foo', resulting to wrong value, expected either 'text', 'image' or 'pdf')",
      ],
      [{ stampSource: 'pdf' }, 'Invalid form data: a stamp file is required for image or pdf source'],
      [
        { watermarkSource: 'text', watermarkExpression: 'X', watermarkOptions: '{"opacity":0.5}' },
        /the option 'opacity' is not a string/,
      ],
      [
        { stampSource: 'text', stampExpression: 'X', stampOptions: '{"mode":"border"}' },
        /the option 'mode' is not supported/,
      ],
      [{ stampSource: 'text', stampExpression: 'X', stampOptions: 'nope' }, /form field 'stampOptions' is invalid/],
      [{ stampSource: 'text', stampExpression: 'X', stampPages: 'odd' }, /form field 'stampPages' is invalid/],
      [
        { stampSource: 'text', stampExpression: 'X', stampPages: '40' },
        /form field 'stampPages' is invalid .*has 1 page/,
      ],
      [{ stampSource: 'text', stampExpression: '機密' }, /form field 'stampExpression' is invalid/],
      [{ stampSource: 'text', stampExpression: 'X', pdfa: 'PDF/A-1b' }, /cannot be drawn on PDF\/A-1b/],
      [
        { watermarkSource: 'image' },
        /form file 'watermark' is invalid \(resulting to not a PNG or JPEG image\)/,
        [['watermark', docx]],
      ],
    ];
    for (const [fields, message, files] of cases) {
      const r = await post(fields, [docx], files ?? []);
      expect(r.res.status, JSON.stringify(fields)).toBe(400);
      if (typeof message === 'string') expect(r.text).toBe(message);
      else expect(r.text).toMatch(message);
    }
  });
});

describe('documents as they come', () => {
  it('renders a workbook saved scrolled down in full on one page a sheet (SinglePageSheets)', async () => {
    const scrolled = office('gotenberg-singlepagesheets-scrolled.xlsx');
    const r = await post({ singlePageSheets: 'true' }, [scrolled], [], { 'Gotenberg-Output-Filename': 'foo' });
    expect(r.res.status, r.text).toBe(200);
    expect(r.res.headers['content-disposition']).toMatch(/foo\.pdf/);
    const pdf = save(r.body);
    const first = run('pdftotext', ['-f', '1', '-l', '1', pdf, '-']).stdout;
    expect(first).toContain('Meteor');
  });

  it('converts a macro-enabled PowerPoint show, its macros never run (PowerPoint Show .ppsm)', async () => {
    const ppsm = join(scratch, 'slideshow.ppsm');
    await rewriteZip(office('gotenberg-slideshow.ppsx'), ppsm, '[Content_Types].xml', (types) =>
      types.replace(
        'application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml',
        'application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml',
      ),
    );
    const r = await post({}, [ppsm]);
    expect(r.res.status, r.text).toBe(200);
    const pdf = save(r.body);
    expect(pdfPages(pdf)).toBe(1);
    expect(pdfText(pdf).toLowerCase()).toContain('powerpoint show');
  });

  it('keeps a picture stored inside the document (Embedded Image Survives)', async () => {
    const png = readFileSync(office('../images/pillow-transparent.png')).toString('base64');
    const fodt = join(scratch, 'embedded-image.fodt');
    writeFileSync(
      fodt,
      `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:body><office:text><text:p>A picture kept inside:<draw:frame draw:name="p" text:anchor-type="as-char"
 svg:width="3cm" svg:height="3cm"><draw:image><office:binary-data>${png}</office:binary-data></draw:image></draw:frame></text:p>
 </office:text></office:body></office:document>`,
    );
    const r = await post({}, [fodt], [], { 'Gotenberg-Output-Filename': 'foo' });
    expect(r.res.status, r.text).toBe(200);
    const images = run('pdfimages', ['-list', save(r.body)])
      .stdout.split('\n')
      .slice(2)
      .filter(Boolean);
    // The picture itself (its transparency is a soft mask beside it).
    expect(images.filter((l) => l.trim().split(/\s+/)[2] === 'image')).toHaveLength(1);
  });

  it('converts a document whose name is longer than most file systems allow (Long Filename)', async () => {
    const name = `Longitudinell_jämförelse_mellan_laserkirurgi_och_strålbehandling_gällande_röstkvalitet_och_självskattad_kommunikation_upp_till_två_år_efter_tidig_stämbandscancer_i_ett_randomiserat_kontrollerat_försök.docx`;
    const long = join(scratch, name);
    copyFileSync(docx, long);
    const r = await post({}, [long], [], { 'Gotenberg-Output-Filename': 'foo' });
    expect(r.res.status, r.text).toBe(200);
    expect(pdfPages(save(r.body))).toBe(1);
  });
});

describe('fields refused, never ignored', () => {
  it('answers 400 naming each field this server does not do', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ optimizeImages: 'true' }, /form field 'optimizeImages' is invalid/],
      [{ facturxConformanceLevel: 'EN 16931' }, /form field 'facturxConformanceLevel' is invalid/],
      [{ embedsMetadata: '{}' }, /form field 'embedsMetadata' is invalid/],
      [{ downloadFrom: '[{"url":"http://example.com/a.docx"}]' }, /form field 'downloadFrom' is invalid/],
    ];
    for (const [fields, message] of cases) {
      const r = await post(fields);
      expect(r.res.status).toBe(400);
      expect(r.text).toMatch(/^Invalid form data: /);
      expect(r.text).toMatch(message);
    }
    const xml = join(scratch, 'invoice.xml');
    writeFileSync(xml, '<x/>');
    const facturx = await post({}, [docx], [['facturxXml', xml]]);
    expect(facturx.res.status).toBe(400);
    expect(facturx.text).toMatch(/form file 'facturxXml' is invalid/);
    const webhook = await post({}, [docx], [], { 'Gotenberg-Webhook-Url': 'http://example.com/hook' });
    expect(webhook.res.status).toBe(400);
    expect(webhook.text).toMatch(/header 'gotenberg-webhook-url' is invalid/);
  });

  it('checks every LibreOffice export option as Gotenberg does (Bad Request)', async () => {
    const bools = ['exportFormFields', 'exportBookmarks', 'firstPageOnLeft', 'centerWindow', 'useTransitionEffects'];
    const fields: Record<string, string> = {
      ...Object.fromEntries(bools.map((b) => [b, 'foo'])),
      initialView: '5',
      initialPage: '-1',
      magnification: '9',
      zoom: '-1',
      pageLayout: '7',
      openBookmarkLevels: '15',
      maxImageResolution: '10',
      pdfua: 'foo',
    };
    const r = await post(fields);
    expect(r.res.status).toBe(400);
    for (const b of [...bools, 'pdfua'])
      expect(r.text).toContain(
        `form field '${b}' is invalid (got 'foo', resulting to strconv.ParseBool: parsing "foo": invalid syntax)`,
      );
    expect(r.text).toContain("form field 'initialView' is invalid (got '5', resulting to value is not 0, 1 or 2)");
    expect(r.text).toContain("form field 'initialPage' is invalid (got '-1', resulting to value is inferior to 1)");
    expect(r.text).toContain(
      "form field 'magnification' is invalid (got '9', resulting to value is not 0, 1, 2, 3 or 4)",
    );
    expect(r.text).toContain("form field 'pageLayout' is invalid (got '7', resulting to value is not 0, 1, 2 or 3)");
    expect(r.text).toContain(
      "form field 'openBookmarkLevels' is invalid (got '15', resulting to value is not -1 or between 1 and 10)",
    );
    expect(r.text).toContain(
      "form field 'maxImageResolution' is invalid (got '10', resulting to value is not 75, 150, 300, 600 or 1200)",
    );
  });

  it("answers Gotenberg's bare 500 when a result fails its verification", () => {
    const err = toGotenbergError(new VerificationError('text', 'page 1 lost 3 of 9 words'), {
      pageRange: '',
      file: 'a.docx',
      password: false,
    });
    expect([err.status, err.message]).toEqual([500, 'Internal Server Error']);
  });
});

describe('plain curl, as in Gotenberg’s documentation', () => {
  it('converts, encrypts and writes metadata', async () => {
    const out = join(scratch, 'curl.pdf');
    // curl runs beside the service, which answers from this very process: never spawnSync here.
    const r = await curl([
      '--silent',
      '--show-error',
      '--fail',
      '--request',
      'POST',
      `${base}/forms/libreoffice/convert`,
      '--form',
      `files=@${docx}`,
      '--form',
      'userPassword=secret',
      '--form',
      'metadata={"Author":"Zebra Author"}',
      '-o',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(requiresPassword(out)).toBe(0);
    expect(run('pdfinfo', ['-upw', 'secret', out]).stdout).toMatch(/^Author:\s+Zebra Author$/m);
    const version = (await curl(['--silent', `${base}/version`])).stdout;
    expect(version).toMatch(/^8\.36\.0-quire\./);
  });
});
