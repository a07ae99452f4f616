import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';

/**
 * pdf-lib (some 40 MB once loaded) stays out of memory until this tool is first used, so the qpdf
 * tools, which handle the largest files, run in a small process.
 */
export async function run(ctx: ToolContext<ToolOptions<'pdf-metadata-cleaner'>>): Promise<ToolResult> {
  return (await import('./clean-metadata.ts')).cleanMetadata(ctx);
}
