import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';

/** pdf-lib and the signing libraries stay out of memory until this tool is first used (see add-watermark). */
export async function run(ctx: ToolContext<ToolOptions<'sign-pdf'>>): Promise<ToolResult> {
  return (await import('./sign.ts')).sign(ctx);
}
