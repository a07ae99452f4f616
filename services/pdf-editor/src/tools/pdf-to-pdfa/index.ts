import { writeFile } from 'node:fs/promises';
import type { ToolOptions } from '@quire/catalog';
import { fail, ToolError } from '@quire/base';
import { pageCount } from '@quire/pdf';
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
 * A PDF/A copy (part 2, 1 or 3, level b) through Ghostscript's pdfwrite: fonts embedded, colours
 * converted to RGB under an sRGB output intent, the PDF/A identification in its XMP metadata, and
 * what PDF/A forbids (encryption, JavaScript) left out. Policy 1 drops a feature PDF/A does not
 * allow rather than giving up on the file. The result is checked for these (ResultChecks.archival),
 * not run through an external PDF/A validator.
 */
export async function run(ctx: ToolContext<ToolOptions<'pdf-to-pdfa'>>): Promise<ToolResult> {
  const source = await openInput(ctx, ctx.inputs[0]!);
  const { conformance } = ctx.options;
  const intent = workPath(ctx, 'output-intent.ps');
  await writeFile(intent, outputIntent(srgbProfile));
  const out = workPath(ctx, 'pdfa.pdf');
  await ghostscript(ctx, [
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
    intent,
    source,
  ]).catch((err: unknown) => {
    // A timeout or a cancelled job stays what it is; anything else Ghostscript reports is the file's.
    if (err instanceof ToolError) throw err;
    fail('damaged_input', 'This PDF could not be read to make a PDF/A copy of it.', err);
  });
  return {
    path: out,
    properties: { pages: await pageCount(out, ctx), conformance: `PDF/A-${conformance.toUpperCase()}` },
  };
}
