import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { readInput, summary } from '../../input.ts';
import { toMarkdown, toText } from '../../render/text.ts';

/** Text in reading order, or Markdown with headings, lists, paragraphs and tables. */
export async function run(ctx: ToolContext<ToolOptions<'pdf-to-text'>>): Promise<ToolResult> {
  const md = ctx.options.format === 'md';
  return readInput(ctx, { images: false, ocr: ctx.options }, async (doc) => {
    const out = join(ctx.workdir, md ? 'out.md' : 'out.txt');
    const body = md ? toMarkdown(doc) : toText(doc);
    await writeFile(out, body, 'utf8');
    return { path: out, properties: summary(doc, { characters: body.length }) };
  });
}
