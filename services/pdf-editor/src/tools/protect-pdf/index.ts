import type { PdfPermission, ToolOptions } from '@quire/catalog';
import { encryptPdf, pageCount, type PdfRestrictions } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openInput, workPath } from '../../pdf.ts';

type Options = ToolOptions<'protect-pdf'>;

/** Each permission as qpdf's 256-bit restrictions say it: granted (`y`, or full printing) or withheld. */
function restrictions(o: Options): PdfRestrictions {
  const yn = (granted: boolean): 'y' | 'n' => (granted ? 'y' : 'n');
  return {
    print: o.allowPrint ? 'full' : 'none',
    extract: yn(o.allowCopy),
    // Changing the pages' content and assembling the document (insert, delete, turn pages) alike.
    modifyOther: yn(o.allowModify),
    assemble: yn(o.allowModify),
    annotate: yn(o.allowAnnotate),
    form: yn(o.allowFillForms),
  };
}

/**
 * Encrypts the PDF with AES-256 (R6): the user password opens it; the owner password, the user's or a
 * random one that no one holds (so that the permissions hold), may change the permissions. An
 * encrypted input has been opened with the `password` field first, so its old protection goes.
 * The passwords are never logged nor returned (see encryptPdf).
 */
export async function run(ctx: ToolContext<Options>): Promise<ToolResult> {
  const input = ctx.inputs[0]!;
  const source = await openInput(ctx, input);
  const o = ctx.options;
  const out = workPath(ctx, 'protected.pdf');
  await encryptPdf(
    source,
    out,
    {
      userPassword: o.userPassword,
      ...(o.ownerPassword === undefined ? {} : { ownerPassword: o.ownerPassword }),
      restrictions: restrictions(o),
    },
    ctx,
  );
  const permissions: Record<PdfPermission, boolean> = {
    print: o.allowPrint,
    copy: o.allowCopy,
    modify: o.allowModify,
    annotate: o.allowAnnotate,
    fillForms: o.allowFillForms,
  };
  return {
    path: out,
    properties: {
      pages: await pageCount(source, ctx),
      encryption: 'AES-256',
      permissions,
      ownerPassword: o.ownerPassword === undefined ? 'random' : 'given',
      wasEncrypted: input.encrypted ?? source !== input.path,
    },
  };
}
