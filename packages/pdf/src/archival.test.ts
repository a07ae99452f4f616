import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, PDFName, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { findTool } from '@quire/catalog';
import { verifyResult, VerificationError } from './verify.ts';

const corpus = new URL('../../../../shared/corpus/pdf/', import.meta.url).pathname;
const source = join(corpus, 'pypdf-pdflatex-4-pages.pdf');
const dir = mkdtempSync(join(tmpdir(), 'archival-'));
const icc = '/usr/share/color/icc/ghostscript/srgb.icc';

/** A PDF/A-2b copy of the source as the tool makes it: Ghostscript with an sRGB output intent. */
function pdfa(): string {
  const intent = join(dir, 'intent.ps');
  writeFileSync(
    intent,
    `[/_objdef {icc} /type /stream /OBJ pdfmark
[{icc} << /N 3 >> /PUT pdfmark
[{icc} (${icc}) (r) file /PUT pdfmark
[/_objdef {oi} /type /dict /OBJ pdfmark
[{oi} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc} /OutputConditionIdentifier (sRGB) >> /PUT pdfmark
[{Catalog} << /OutputIntents [ {oi} ] >> /PUT pdfmark
`,
  );
  const out = join(dir, 'good.pdf');
  execFileSync('gs', [
    '-q',
    '-dSAFER',
    '-dBATCH',
    '-dNOPAUSE',
    '-sDEVICE=pdfwrite',
    '-dPDFA=2',
    '-dPDFACompatibilityPolicy=1',
    '-sColorConversionStrategy=RGB',
    `--permit-file-read=${icc}`,
    `-sOutputFile=${out}`,
    intent,
    source,
  ]);
  return out;
}
const good = pdfa();

/** The good copy changed by pdf-lib, saved as another file. */
async function changed(name: string, change: (doc: PDFDocument) => Promise<void> | void): Promise<string> {
  const doc = await PDFDocument.load(readFileSync(good), { updateMetadata: false });
  await change(doc);
  const out = join(dir, name);
  writeFileSync(out, await doc.save({ useObjectStreams: false }));
  return out;
}

const job = () => ({
  workdir: mkdtempSync(join(dir, 'job-')),
  signal: new AbortController().signal,
  deadline: Date.now() + 60_000,
});
const verify = (result: string) =>
  verifyResult({
    tool: findTool('pdf-to-pdfa')!,
    inputs: [{ path: source, kind: 'pdf' }],
    options: { conformance: '2b' },
    result: { path: result, kind: 'pdf' },
    job: job(),
  });

async function refusal(result: string): Promise<string> {
  const err = await verify(result).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VerificationError);
  expect((err as VerificationError).check).toBe('archival');
  return String((err as VerificationError).cause);
}

describe('the archival check', () => {
  it('passes a PDF/A copy, and a copy pdf-lib saved again unchanged', async () => {
    expect(await verify(good)).toContain('archival');
    expect(await verify(await changed('same.pdf', () => {}))).toContain('archival');
  });

  it('refuses a PDF without the PDF/A identification in its XMP', async () => {
    const noXmp = await changed('no-xmp.pdf', (doc) => void doc.catalog.delete(PDFName.of('Metadata')));
    expect(await refusal(noXmp)).toMatch(/identification/);
  });

  it('refuses a PDF without an output intent', async () => {
    const noIntent = await changed('no-intent.pdf', (doc) => void doc.catalog.delete(PDFName.of('OutputIntents')));
    expect(await refusal(noIntent)).toMatch(/output intent/);
  });

  it('refuses a PDF with a font that is not embedded', async () => {
    const loose = await changed('loose-font.pdf', async (doc) => {
      const font = await doc.embedFont(StandardFonts.Helvetica);
      doc.getPage(0).drawText('Not embedded', { x: 20, y: 20, size: 8, font });
    });
    expect(await refusal(loose)).toMatch(/not embedded: Helvetica/);
  });

  it('refuses a PDF with JavaScript', async () => {
    const script = await changed('script.pdf', (doc) =>
      doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: 'app.alert(1)' })),
    );
    expect(await refusal(script)).toMatch(/JavaScript/);
  });

  it('refuses an encrypted PDF, even one that opens without a password', async () => {
    const locked = join(dir, 'locked.pdf');
    execFileSync('qpdf', ['--encrypt', '', 'owner', '256', '--', good, locked]);
    expect(await refusal(locked)).toMatch(/encrypted/);
  });
});
