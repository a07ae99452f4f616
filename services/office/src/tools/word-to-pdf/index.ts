import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import type { OfficeEngine } from '../../engine/engine.ts';
import { officeToPdf, toolFamilies } from '../../to-pdf.ts';

export function run(ctx: ToolContext<ToolOptions<'word-to-pdf'>>, engine: OfficeEngine): Promise<ToolResult> {
  return officeToPdf(ctx, engine, toolFamilies['word-to-pdf']);
}
