import { readFile } from 'node:fs/promises';
import type { ToolOptions } from '@quire/catalog';
import { fail, resultName } from '@quire/base';
import type { ToolInput } from '@quire/http';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openRepaired } from '../../pdf.ts';
import { signDigitally } from './digital.ts';
import { stampSignature } from './stamp.ts';

type SignContext = ToolContext<ToolOptions<'sign-pdf'>>;

/**
 * Draws the visible signature (an image, the date, or both) on the pages asked, then, with a
 * certificate, signs the file digitally: last, so that nothing changes a byte after the signature.
 */
export async function sign(ctx: SignContext): Promise<ToolResult> {
  const { pdf, image, certificate } = sortInputs(ctx.inputs);
  if (!image && !certificate)
    fail('missing_file', 'Please add a signature image (PNG or JPEG), a certificate (.p12 or .pfx), or both.');
  const { path: source } = await openRepaired(ctx, pdf);
  const stamped = image || ctx.options.date ? await stampSignature(ctx, source, image) : undefined;
  const drawn = stamped?.path ?? source;
  const name = resultName(pdf.name, 'pdf');
  const visible = stamped ? { signedPages: stamped.pages } : {};
  if (!certificate) return { path: drawn, name, properties: { ...visible, digital: false } };
  // The certificate is read into memory and used for this request only; its upload goes with the work folder.
  const signed = await signDigitally(ctx, drawn, await readFile(certificate.path));
  return { path: signed.path, name, properties: { ...visible, digital: true, ...signed.properties } };
}

/** The one PDF, and at most one signature image and one certificate, whatever order they came in. */
function sortInputs(inputs: readonly ToolInput[]): { pdf: ToolInput; image?: ToolInput; certificate?: ToolInput } {
  const of = (test: (i: ToolInput) => boolean, what: string) => {
    const found = inputs.filter(test);
    if (found.length > 1) fail('too_many_files', `Sign PDF takes one ${what}; ${found.length} were sent.`);
    return found[0];
  };
  const pdf = of((i) => i.kind === 'pdf', 'PDF');
  if (!pdf) fail('missing_file', 'Please choose the PDF to sign.');
  const image = of((i) => i.kind === 'png' || i.kind === 'jpeg', 'signature image');
  const certificate = of((i) => i.kind === 'p12', 'certificate');
  return { pdf, ...(image && { image }), ...(certificate && { certificate }) };
}
