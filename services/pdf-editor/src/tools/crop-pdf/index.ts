import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';

/** pdf-lib is loaded when this tool is first used, as add-watermark's, to keep the qpdf tools' process small. */
export async function run(ctx: ToolContext<ToolOptions<'crop-pdf'>>): Promise<ToolResult> {
  return (await import('./crop.ts')).crop(ctx);
}
