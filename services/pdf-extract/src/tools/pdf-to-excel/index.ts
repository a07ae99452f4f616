import { join } from 'node:path';
import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { readInput, summary } from '../../input.ts';
import { writeXlsx } from '../../render/xlsx.ts';

/** The PDF's tables as sheets; its text lines when it has none. */
export async function run(ctx: ToolContext<ToolOptions<'pdf-to-excel'>>): Promise<ToolResult> {
  return readInput(ctx, { images: false, ocr: ctx.options }, async (doc) => {
    const out = join(ctx.workdir, 'out.xlsx');
    const { sheets } = await writeXlsx(doc, out);
    return { path: out, properties: summary(doc, { sheets }) };
  });
}
