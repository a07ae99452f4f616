import { accepts, type FileKind, type Tool } from '@quire/catalog';
import { holdsPdf } from './damaged-pdf.ts';
import { familyOfKind, officeKindFor } from './office-detect.ts';
import { sniffKind } from './sniff.ts';
import { startsAsText } from './text.ts';
import { detectZipKind } from './zip-entries.ts';

/**
 * The kind of an uploaded file, judged by its bytes, when it is one the tool takes; else undefined.
 * A zip is told from a page with its assets by its entries; for a tool that repairs PDFs, a damaged
 * one is a PDF too (see holdsPdf).
 */
export async function uploadKind(tool: Tool, path: string): Promise<FileKind | undefined> {
  let kind = await sniffKind(path);
  if (kind === 'zip') kind = await detectZipKind(path);
  if (kind && accepts(tool, kind)) return kind;
  // A tool that repairs PDFs takes any file a reader could still recover one from.
  if ('kinds' in tool.input && tool.input.damaged && accepts(tool, 'pdf') && (await holdsPdf(path))) return 'pdf';
  // Markdown is any text, HTML included; it has no bytes of its own to be told by.
  if ((kind === undefined || kind === 'html') && accepts(tool, 'md') && (await startsAsText(path))) return 'md';
  // OLE2, CSV, flat ODF and encrypted OOXML are told only by looking inside.
  if ('kinds' in tool.input && tool.input.kinds.some((k) => k in familyOfKind))
    return officeKindFor(path, tool.input.kinds);
  return undefined;
}
