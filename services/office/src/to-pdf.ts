import type { ToolId } from '@quire/catalog';
import { ToolError } from '@quire/base';
import { detectOfficeFormat, type Family } from '@quire/detect';
import { pageCount } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { convertDocument, toContractError } from './convert.ts';
import type { OfficeEngine } from './engine/engine.ts';

/** The application each catalog tool converts from. */
export const toolFamilies = {
  'word-to-pdf': 'writer',
  'excel-to-pdf': 'calc',
  'ppt-to-pdf': 'impress',
} as const satisfies Partial<Record<ToolId, Family>>;

const wanted: Record<Family, string> = {
  writer: 'a Word, OpenDocument or RTF document',
  calc: 'an Excel, OpenDocument or CSV spreadsheet',
  impress: 'a PowerPoint or OpenDocument presentation',
};

/**
 * What each tool folder runs: the kit has checked the upload and the options and holds a queue slot;
 * this reads what the kit's check does not keep (the format LibreOffice is told, a CSV's dialect, an
 * encrypted envelope), converts the document on a warm listener and reports the pages made.
 */
export async function officeToPdf(ctx: ToolContext, engine: OfficeEngine, family: Family): Promise<ToolResult> {
  const input = ctx.inputs[0]!;
  const format = await detectOfficeFormat(input.path);
  if (!format || (format.family !== undefined && format.family !== family)) {
    throw new ToolError('unsupported_type', `"${input.name}" is not ${wanted[family]}.`);
  }
  try {
    const out = await convertDocument(engine, {
      path: input.path,
      name: input.name,
      format,
      expect: family,
      ...(ctx.password ? { password: ctx.password } : {}),
      workdir: ctx.workdir,
      signal: ctx.signal,
      deadline: ctx.deadline,
    });
    // A PDF qpdf cannot count is ours, not the document's: verification rejects it as such.
    const pages = await pageCount(out.path, ctx).catch(() => undefined);
    return { path: out.path, properties: { ...(pages ? { pages } : {}), format: format.ext } };
  } catch (err) {
    throw toContractError(err, family);
  }
}
