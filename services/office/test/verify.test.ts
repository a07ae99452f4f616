/**
 * Results of Gotenberg's route are verified before they are offered, with the kit's own checks, as
 * the catalog tools' are: a good conversion says what was checked, and a broken one (real LibreOffice,
 * its PDF damaged afterwards through the engine the app exposes) is answered in Gotenberg's manner,
 * counted in quire_verification_failures_total, and never sent.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type OfficeApp } from '../src/app.ts';
import type { ConvertRequest } from '../src/engine/engine.ts';
import { closeLeavingNothing, office, pdfPages, qpdfCheck, tempDir } from './helpers.ts';

const work = tempDir('office-verify-work-');
const scratch = tempDir('office-verify-');
let app: OfficeApp;

beforeAll(async () => {
  process.env.WORK_DIR = work;
  app = createApp({ instances: 1, restartAfter: 0 });
  await app.engine.start();
});

afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await closeLeavingNothing(app, work);
});

type Answer = { status: number; type: string; body: Buffer; properties?: Record<string, unknown> };

async function answer(req: request.Test): Promise<Answer> {
  const res = await req.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  const header = res.headers['x-quire-properties'];
  return {
    status: res.status,
    type: String(res.headers['content-type']),
    body: res.body as Buffer,
    ...(header ? { properties: JSON.parse(header) as Record<string, unknown> } : {}),
  };
}

function gotenberg(files: string[], fields: Record<string, string> = {}): Promise<Answer> {
  let req = request(app).post('/forms/libreoffice/convert');
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  for (const f of files) req = req.attach('files', f);
  return answer(req);
}

let saved = 0;
function save(bytes: Buffer): string {
  const path = join(scratch, `out-${++saved}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

/** Failures counted so far, by route or tool and check. */
async function failures(): Promise<Record<string, number>> {
  const text = (await request(app).get('/prometheus/metrics')).text;
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^quire_verification_failures_total\{([^}]*)\} (\d+)/gm)) {
    const tool = /tool="([^"]*)"/.exec(m[1]!)?.[1];
    const check = /check="([^"]*)"/.exec(m[1]!)?.[1];
    counts[`${tool}/${check}`] = Number(m[2]);
  }
  return counts;
}

/** Runs `body` with every PDF LibreOffice writes damaged by `damage` once the conversion is done. */
async function withDamagedOutputs(damage: (pdf: string) => void, body: () => Promise<void>): Promise<void> {
  const { engine } = app;
  const convert = engine.convert.bind(engine);
  engine.convert = async (req: ConvertRequest, opts) => {
    const result = await convert(req, opts);
    damage(req.output);
    return result;
  };
  try {
    await body();
  } finally {
    Reflect.deleteProperty(engine, 'convert');
  }
}

/** Cut in half: no longer a PDF that qpdf can read. */
const truncate = (pdf: string) => truncateSync(pdf, Math.floor(statSync(pdf).size / 2));
/** A well-formed PDF of no pages. */
const emptied = (pdf: string) => execFileSync('qpdf', ['--empty', pdf]);

describe("verification on Gotenberg's route", () => {
  it('says what was checked of a good conversion, a merge and a zip', async () => {
    const one = await gotenberg([office('jod-test.docx')]);
    expect(one.status).toBe(200);
    expect(one.properties).toEqual({ bytes: one.body.length, files: 1, checks: ['opens', 'pages'] });
    expect(pdfPages(save(one.body))).toBe(1);

    const files = [office('jod-test.odt'), office('gotenberg-pages_12.docx')];
    const merged = await gotenberg(files, { merge: 'true' });
    expect(merged.status).toBe(200);
    // The merge is held to the catalog's merge promise: pages summed, text and pixels kept.
    expect(merged.properties).toEqual({
      bytes: merged.body.length,
      files: 2,
      checks: ['opens', 'pages', 'text', 'pixels'],
    });
    expect(pdfPages(save(merged.body))).toBe(13);

    const zipped = await gotenberg(files);
    expect(zipped.status).toBe(200);
    expect(zipped.type).toBe('application/zip');
    expect(zipped.properties).toEqual({ bytes: zipped.body.length, files: 2, checks: ['opens', 'pages'] });
  });

  it('never offers a result that does not open, or has no pages, and counts each', async () => {
    const before = await failures();
    const counted = async (key: string) => ((await failures())[key] ?? 0) - (before[key] ?? 0);
    await withDamagedOutputs(truncate, async () => {
      const r = await gotenberg([office('jod-test.docx')]);
      expect(r.status).toBe(500);
      expect(r.type).toMatch(/^text\/plain/);
      expect(r.body.toString()).toBe('Internal Server Error');
      expect(r.properties).toBeUndefined();
    });
    expect(await counted('libreoffice-convert/opens')).toBe(1);

    await withDamagedOutputs(emptied, async () => {
      // Each document is checked before merging: one broken part stops the whole answer.
      const r = await gotenberg([office('jod-test.odt'), office('jod-test.docx')], { merge: 'true' });
      expect(r.status).toBe(500);
      expect(r.body.toString()).toBe('Internal Server Error');
    });
    expect(await counted('libreoffice-convert/pages')).toBe(1);

    // The catalog tools go through the same step, counted under their own ids.
    await withDamagedOutputs(truncate, async () => {
      const r = await answer(request(app).post('/tools/word-to-pdf').attach('file', office('jod-test.docx')));
      expect(r.status).toBe(500);
      expect(JSON.parse(r.body.toString())).toEqual({
        error: {
          code: 'internal',
          message: 'The result did not pass our checks, so we did not offer it. Please try again.',
        },
      });
    });
    expect(await counted('word-to-pdf/opens')).toBe(1);

    // The damage was real: the same conversion undamaged is offered, and opens.
    const good = await gotenberg([office('jod-test.docx')]);
    expect(good.status).toBe(200);
    expect([0, 3]).toContain(qpdfCheck(save(good.body)));
  });
});
