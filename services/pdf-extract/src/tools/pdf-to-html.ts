import { join } from 'node:path';
import type { ToolRun } from '@quire/service-kit';
import { readInput, stem, summary } from '../input.ts';
import { writeHtml } from '../render/html.ts';

/** One self-contained web page: semantic headings, paragraphs, lists and tables, images inlined. */
export const pdfToHtml: ToolRun = async (ctx) => {
  const doc = await readInput(ctx, { images: true });
  const out = join(ctx.workdir, 'out.html');
  await writeHtml(doc, stem(ctx), out);
  return { path: out, properties: summary(doc) };
};
