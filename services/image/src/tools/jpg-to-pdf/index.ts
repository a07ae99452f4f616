import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { imagesToPdf } from '../../images-to-pdf.ts';

export function run(ctx: ToolContext<ToolOptions<'jpg-to-pdf'>>): Promise<ToolResult> {
  return imagesToPdf(ctx);
}
