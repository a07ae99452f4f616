import { basename, extname } from 'node:path';
import { fileKinds, type FileKind } from '@quire/catalog';

/** A file name without its extension, for naming results; `document` when nothing is left. */
export function stem(name: string): string {
  return name.slice(0, name.length - extname(name).length) || 'document';
}

/** A client's file name reduced to letters, digits, dots, dashes and underscores; for display and naming. */
export function safeName(original: string): string {
  const base = basename(original.replace(/\\/g, '/'));
  const clean = (s: string) =>
    s
      .normalize('NFC')
      .replace(/[^\p{L}\p{N}._-]+/gu, '-')
      .replace(/^[.-]+|[.-]+$/g, '')
      .replace(/-{2,}/g, '-');
  const cleanStem = clean(stem(base)).slice(0, 80) || 'document';
  const cleanExt = clean(extname(base).slice(1, 10));
  return cleanExt ? `${cleanStem}.${cleanExt}` : cleanStem;
}

/** The first input's name with the output's extension, or a plain name for URL tools. */
export function resultName(inputName: string | undefined, kind: FileKind): string {
  return `${inputName ? stem(inputName) : 'page'}.${fileKinds[kind].ext}`;
}
