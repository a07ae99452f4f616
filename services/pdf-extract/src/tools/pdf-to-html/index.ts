import { join } from 'node:path';
import type { ToolOptions } from '@quire/catalog';
import { stem } from '@quire/base';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { readInput, summary } from '../../input.ts';
import { writeHtml } from '../../render/html.ts';

/** One self-contained web page: semantic headings, paragraphs, lists and tables, images inlined. */
export async function run(ctx: ToolContext<ToolOptions<'pdf-to-html'>>): Promise<ToolResult> {
  return readInput(ctx, { images: true, ocr: ctx.options }, async (doc) => {
    const out = join(ctx.workdir, 'out.html');
    await writeHtml(doc, stem(ctx.inputs[0]?.name ?? 'document'), out);
    return { path: out, properties: summary(doc) };
  });
}
