import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';

/** pdf-lib stays out of memory until the tool is first used (see add-watermark). */
export async function run(ctx: ToolContext<ToolOptions<'compare-pdf'>>): Promise<ToolResult> {
  return (await import('./compare.ts')).compare(ctx);
}
