import type { ToolOptions } from '@quire/catalog';
import { pageCount } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openRepaired } from '../../pdf.ts';

/**
 * Removes the encryption: the user password opens the file, and an owner-password-only file needs
 * none. A file that was not encrypted comes back as a clean copy.
 */
export async function run(ctx: ToolContext<ToolOptions<'pdf-unlock'>>): Promise<ToolResult> {
  const { path, wasEncrypted } = await openRepaired(ctx, ctx.inputs[0]!);
  return {
    path,
    properties: { pages: await pageCount(path, ctx), wasEncrypted },
  };
}
