import { pageCount, type ToolRun } from '@quire/service-kit';
import { openRepaired } from '../pdf.ts';

/**
 * Removes the encryption: the user password opens the file, and an owner-password-only file needs
 * none. A file that was not encrypted comes back as a clean copy.
 */
export const unlock: ToolRun = async (ctx) => {
  const { path, wasEncrypted } = await openRepaired(ctx, ctx.inputs[0]!);
  return {
    path,
    properties: { pages: await pageCount(path, ctx), wasEncrypted },
  };
};
