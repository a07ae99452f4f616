import type { ToolOptions } from '@quire/catalog';
import { pageCount, VerificationError } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { drawForm, fieldNames } from '../../forms.ts';
import { loadPdf, savePdf } from '../../pdf-lib.ts';
import { openInput, workPath } from '../../pdf.ts';
import { fillForm, misfilled } from './fill.ts';

/**
 * Fills the form's fields with the `values` given (JSON, field name to value), each checked against its
 * field first; qpdf then draws every field as its value says and, with `flatten`, burns them into the
 * pages. The result is read back: each field holds its value, or no field is left when flattened.
 */
export async function run(ctx: ToolContext<ToolOptions<'fill-pdf-form'>>): Promise<ToolResult> {
  const { values, flatten } = ctx.options;
  const source = await openInput(ctx, ctx.inputs[0]!);
  let drawn = source;
  const named = Object.keys(values).length;
  if (named > 0) {
    const doc = await loadPdf(source);
    fillForm(doc.getForm(), values);
    drawn = workPath(ctx, 'filled.pdf');
    await savePdf(doc, drawn);
  }
  const out = workPath(ctx, 'form.pdf');
  await drawForm(ctx, drawn, out, flatten);

  if (flatten && (await fieldNames(out, ctx)).length)
    throw new VerificationError('form', 'fields are left after flattening');
  const wrong = flatten || named === 0 ? undefined : misfilled((await loadPdf(out)).getForm(), values);
  if (wrong !== undefined) throw new VerificationError('form', `field "${wrong}" does not hold its value`);
  return { path: out, properties: { pages: await pageCount(out, ctx), filled: named, flattened: flatten } };
}
