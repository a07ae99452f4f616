import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { printStep } from '../../page.ts';
import { nameFor, pdfOptions, type Printing } from '../../printing.ts';

/** The page at a web address, loaded under the URL policy and printed. */
export async function run(job: ToolContext<ToolOptions<'pdf-from-url'>>, r: Printing): Promise<ToolResult> {
  const url = await r.checkedUrl(job);
  const pdf = await r.supervisor.run(job.signal, async (session) => {
    const page = await r.openWebPage(session, url, job, 1280, 'print');
    return printStep(page.pdf(pdfOptions(job.options)), r.settings);
  });
  return r.finish(job, pdf, nameFor(url));
}
