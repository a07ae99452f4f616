import { fileKinds } from 'virtual:quire/file-kinds';
import type { Tool } from '../../lib/tools.ts';

/** Other endings of a kind's files than the catalog's own. */
const moreEndings: Partial<Record<string, string[]>> = {
  jpeg: ['.jpeg', '.jpe', '.jfif'],
  tiff: ['.tiff'],
  html: ['.htm'],
  p12: ['.pfx'],
};

/**
 * What the picker offers: file name endings, and for images their MIME types too, which lets a phone
 * open its photo gallery (and an iPhone hand over a HEIC photo as JPEG). The server judges files by
 * their content, never by these.
 */
export function acceptOf(tool: Tool): string {
  if (!('kinds' in tool.input)) return '';
  return tool.input.kinds
    .flatMap((k) => {
      const { ext, mime } = fileKinds[k];
      return [`.${ext}`, ...(moreEndings[k] ?? []), ...(mime.startsWith('image/') ? [mime] : [])];
    })
    .join(',');
}
