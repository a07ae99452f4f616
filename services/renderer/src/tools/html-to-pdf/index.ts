import type { ToolOptions } from '@quire/catalog';
import { ToolError } from '@quire/base';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { pdfOptions, type Printing } from '../../printing.ts';
import { readSite } from '../../site.ts';

/** An uploaded page, or a zip of a page and its assets, printed from memory. */
export async function run(job: ToolContext<ToolOptions<'html-to-pdf'>>, r: Printing): Promise<ToolResult> {
  const input = job.inputs[0];
  if (!input) throw new ToolError('missing_file');
  const site = await readSite(input, { maxEntries: r.settings.zipMaxEntries, maxBytes: r.settings.zipMaxBytes });
  if (!site.has('index.html')) throw new ToolError('unsupported_type', 'The zip must hold index.html at its top.');
  const pdf = await r.supervisor.run(job.signal, (session) =>
    r.printSite(session, site, pdfOptions(job.options, site), job.log),
  );
  return r.finish(job, pdf, undefined);
}
