import { join } from 'node:path';
import type { ToolRun } from '@quire/service-kit';
import { readInput, summary } from '../input.ts';
import { writeDocx } from '../render/docx.ts';

/** An editable Word document: flowing paragraphs, headings, lists, tables and images. */
export const pdfToWord: ToolRun = async (ctx) => {
  const doc = await readInput(ctx, { images: true });
  const out = join(ctx.workdir, 'out.docx');
  await writeDocx(doc, out);
  return { path: out, properties: summary(doc) };
};
