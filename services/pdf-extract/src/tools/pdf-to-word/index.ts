import { join } from 'node:path';
import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { readInput, summary } from '../../input.ts';
import { writeDocx } from '../../render/docx.ts';

/** An editable Word document: flowing paragraphs, headings, lists, tables and images. */
export async function run(ctx: ToolContext<ToolOptions<'pdf-to-word'>>): Promise<ToolResult> {
  return readInput(ctx, { images: true, ocr: ctx.options }, async (doc) => {
    const out = join(ctx.workdir, 'out.docx');
    await writeDocx(doc, out);
    return { path: out, properties: summary(doc) };
  });
}
