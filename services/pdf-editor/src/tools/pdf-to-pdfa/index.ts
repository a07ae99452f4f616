import { writeFile } from 'node:fs/promises';
import type { ToolOptions } from '@quire/catalog';
import { fail, ToolError } from '@quire/base';
import { pageCount, pageText, qpdf, samplePageNumbers, wordsLost } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { ghostscript } from '../../ghostscript.ts';
import { openInput, workPath } from '../../pdf.ts';

/** Ghostscript's sRGB profile (from libgs10-common, which the ghostscript package installs): the output intent. */
export const srgbProfile = '/usr/share/color/icc/ghostscript/srgb.icc';

/**
 * The output intent PDF/A asks for, with the sRGB profile embedded. Ghostscript's own PDFA_def.ps
 * does the same but also sets a placeholder title over the document's own.
 */
const outputIntent = (icc: string) => `
[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark
[{icc_PDFA} << /N 3 >> /PUT pdfmark
[{icc_PDFA} (${icc}) (r) file /PUT pdfmark
[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark
[{OutputIntent_PDFA} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA} /OutputConditionIdentifier (sRGB) >> /PUT pdfmark
[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark
`;

/**
 * Ghostscript 10.0 has two PDF readers. The new one (the default) cannot open some files (an /Info
 * that is the page tree) and loses the Unicode of some fonts on the way through pdfwrite (Arabic
 * TrueType, MacRoman TrueType, standard fonts it embeds); the older PostScript one, still shipped,
 * keeps them. Each is tried in turn until a copy keeps the text (a Ghostscript without the older
 * reader ignores the switch and repeats the first try).
 */
const readers = [[], ['-dNEWPDF=false']];

/**
 * A PDF/A copy (part 2, 1 or 3, level b) through Ghostscript's pdfwrite: fonts embedded, colours
 * converted to RGB under an sRGB output intent, the PDF/A identification in its XMP metadata, and
 * what PDF/A forbids (encryption, JavaScript) left out. Policy 1 drops a feature PDF/A does not
 * allow rather than giving up on the file. The result is checked for these (ResultChecks.archival),
 * not run through an external PDF/A validator.
 */
export async function run(ctx: ToolContext<ToolOptions<'pdf-to-pdfa'>>): Promise<ToolResult> {
  const opened = await openInput(ctx, ctx.inputs[0]!);
  // Form fields that leave drawing their values to the reader (NeedAppearances, which PDF/A forbids)
  // would lose them: qpdf draws them first.
  const source = workPath(ctx, 'drawn.pdf');
  await qpdf(['--generate-appearances', opened, source], ctx);
  const { conformance } = ctx.options;
  const intent = workPath(ctx, 'output-intent.ps');
  await writeFile(intent, outputIntent(srgbProfile));
  const pages = await pageCount(source, ctx);
  let unread: unknown;
  let lossy = false;
  for (const [i, reader] of readers.entries()) {
    const out = workPath(ctx, `pdfa-${i}.pdf`);
    const share = 1 / (readers.length - i);
    const said = await ghostscript(ctx, [...reader, ...pdfaArgs(conformance, out), intent, source], share).catch(
      (err: unknown) => {
        // A timeout or a cancelled job stays what it is; anything else is this reader's failure.
        if (err instanceof ToolError) throw err;
        unread = err;
      },
    );
    if (said === undefined) continue;
    // pdfwrite gives up on PDF/A, and says so, when it must substitute a font the file does not hold.
    if (/reverting to normal PDF output/i.test(said) || !(await keepsText(source, out, pages, ctx))) {
      lossy = true;
      continue;
    }
    return {
      path: out,
      properties: { pages: await pageCount(out, ctx), conformance: `PDF/A-${conformance.toUpperCase()}` },
    };
  }
  if (lossy) {
    fail(
      'cannot_convert',
      'No PDF/A copy of this PDF keeps its text: a font it uses is not in the file, or its letters cannot be mapped.',
    );
  }
  fail('damaged_input', 'This PDF could not be read to make a PDF/A copy of it.', unread);
}

function pdfaArgs(conformance: string, out: string): string[] {
  return [
    '-dSAFER',
    '-dBATCH',
    '-dNOPAUSE',
    '-dQUIET',
    '-sDEVICE=pdfwrite',
    `-dPDFA=${conformance[0]}`,
    '-dPDFACompatibilityPolicy=1',
    '-sColorConversionStrategy=RGB',
    `-sOutputICCProfile=${srgbProfile}`,
    `--permit-file-read=${srgbProfile}`,
    // Pages keep the orientation they were given: pdfwrite would otherwise turn them to follow their text.
    '-dAutoRotatePages=/None',
    `-sOutputFile=${out}`,
  ];
}

/** Whether every page the result check samples keeps its words in the copy, by the check's measure. */
async function keepsText(source: string, copy: string, pages: number, ctx: ToolContext): Promise<boolean> {
  for (const page of samplePageNumbers(pages)) {
    const [before, after] = await Promise.all([pageText(source, page, ctx), pageText(copy, page, ctx)]);
    if (!wordsLost(before, after).kept) return false;
  }
  return true;
}
