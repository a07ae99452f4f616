import type { ToolOptions } from '@quire/catalog';
import { pageCount, VerificationError } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { drawForm, fieldNames } from '../../forms.ts';
import { openInput, workPath } from '../../pdf.ts';

/**
 * Burns the form's fields and every annotation that has a look into the pages (drawForm), so that the
 * file looks as it did and nothing in it can be changed: no field is left, which is read back.
 */
export async function run(ctx: ToolContext<ToolOptions<'flatten-pdf'>>): Promise<ToolResult> {
  const source = await openInput(ctx, ctx.inputs[0]!);
  const out = workPath(ctx, 'flat.pdf');
  const [fields] = await Promise.all([fieldNames(source, ctx), drawForm(ctx, source, out, true)]);
  const left = await fieldNames(out, ctx);
  if (left.length) throw new VerificationError('form', `${left.length} fields are left after flattening`);
  return { path: out, properties: { pages: await pageCount(out, ctx), fields: fields.length } };
}
