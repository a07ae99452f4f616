import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import type { PdfPermission, ToolOptions } from '@quire/catalog';
import { exec, timeLeft, ToolError } from '@quire/base';
import { pageCount } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openInput, workPath } from '../../pdf.ts';

type Options = ToolOptions<'protect-pdf'>;

/** Each permission as qpdf's 256-bit restrictions say it: granted (`y`, or full printing) or withheld. */
function restrictions(o: Options): Record<string, string> {
  const yn = (granted: boolean) => (granted ? 'y' : 'n');
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
 * The passwords reach qpdf in a job file (never the process list) that is removed once qpdf is done,
 * and they are never logged nor returned.
 */
export async function run(ctx: ToolContext<Options>): Promise<ToolResult> {
  const input = ctx.inputs[0]!;
  const source = await openInput(ctx, input);
  const o = ctx.options;
  const out = workPath(ctx, 'protected.pdf');
  const owner = o.ownerPassword ?? randomBytes(32).toString('base64url');
  const job = workPath(ctx, 'protect.json');
  const encrypt = { userPassword: o.userPassword, ownerPassword: owner, '256bit': restrictions(o) };
  await writeFile(job, JSON.stringify({ inputFile: source, outputFile: out, encrypt }), { mode: 0o600 });
  try {
    const { code, stderr } = await exec('qpdf', ['--no-warn', `--job-json-file=${job}`], {
      timeoutMs: timeLeft(ctx.deadline),
      signal: ctx.signal,
    });
    // Exit 3: qpdf repaired or warned, and still wrote a good file. What it says is the file's, with
    // any password it might repeat taken out.
    if (code !== 0 && code !== 3) {
      const said = [o.userPassword, owner].reduce((text, pw) => text.split(pw).join('…'), stderr);
      throw new ToolError('damaged_input', undefined, {
        cause: new Error(`qpdf exit ${code}: ${said.slice(0, 2000)}`),
      });
    }
  } finally {
    await rm(job, { force: true });
  }
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
