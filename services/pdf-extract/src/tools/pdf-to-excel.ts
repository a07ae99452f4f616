import { join } from 'node:path';
import type { ToolRun } from '@quire/service-kit';
import { readInput, summary } from '../input.ts';
import { writeXlsx } from '../render/xlsx.ts';

/** The PDF's tables as sheets; its text lines when it has none. */
export const pdfToExcel: ToolRun = async (ctx) => {
  const doc = await readInput(ctx, { images: false });
  const out = join(ctx.workdir, 'out.xlsx');
  const { sheets } = await writeXlsx(doc, out);
  return { path: out, properties: summary(doc, { sheets }) };
};
