import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path/posix';
import type { ToolOptions } from '@quire/catalog';
import { ToolError } from '@quire/base';
import { isMarkdownName, isText } from '@quire/detect';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { pdfOptions, type Printing } from '../../printing.ts';
import { unzipSite, type SiteFiles } from '../../site.ts';
import { markdownPage } from './document.ts';

/** A Markdown file, or a zip of one with its images, printed as a document from memory. */
export async function run(job: ToolContext<ToolOptions<'markdown-to-pdf'>>, r: Printing): Promise<ToolResult> {
  const input = job.inputs[0];
  if (!input) throw new ToolError('missing_file');
  const files: SiteFiles =
    input.kind === 'md'
      ? new Map([['document.md', await readFile(input.path)]])
      : await unzipSite(input.path, { maxEntries: r.settings.zipMaxEntries, maxBytes: r.settings.zipMaxBytes });
  const names = [...files.keys()].filter(isMarkdownName);
  if (names.length !== 1) {
    throw new ToolError(
      'unsupported_type',
      `The zip must hold one Markdown (.md) file with its images; it holds ${names.length}.`,
    );
  }
  const source = files.get(names[0]!)!;
  // The upload was judged by its start; the whole file must be text to be printed as such.
  if (!isText(source)) throw new ToolError('unsupported_type', 'The Markdown file is not text (UTF-8).');
  const folder = dirname(names[0]!);
  files.set('index.html', Buffer.from(markdownPage(source.toString('utf8'), folder === '.' ? '' : `${folder}/`)));
  const print = { ...pdfOptions(job.options), margin: { top: '2cm', bottom: '2cm', left: '2cm', right: '2cm' } };
  const pdf = await r.supervisor.run(job.signal, (session) => r.printSite(session, files, print, job.log));
  return r.finish(job, pdf, undefined);
}
