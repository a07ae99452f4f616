import type { FileKind } from '@quire/catalog';
import { fileTypeFromBuffer } from 'file-type';
import { readStart } from './file-start.ts';

const head = 64 * 1024;

/**
 * What a file is, judged by its bytes alone. PDF readers accept a header anywhere in the first
 * kilobyte, so we do too (qpdf repairs the offsets). Kinds file-type does not know are told by their text.
 */
export async function sniffKind(path: string): Promise<FileKind | undefined> {
  const bytes = await readStart(path, head);
  if (bytes.length === 0) return undefined;
  if (bytes.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  const type = await fileTypeFromBuffer(bytes);
  switch (type?.ext) {
    case 'jpg':
      return 'jpeg';
    case 'png':
    case 'gif':
    case 'bmp':
    case 'webp':
    case 'docx':
    case 'xlsx':
    case 'pptx':
    case 'odt':
    case 'ods':
    case 'odp':
    case 'rtf':
      return type.ext;
    case 'tif':
      return 'tiff';
    case 'zip':
      return 'zip';
    case 'cfb':
      return undefined; // OLE2 (doc, xls, ppt) is told apart by its streams where it is accepted.
    default:
      break;
  }
  // TIFF writers may put the first directory at the end of the file, past what file-type reads here.
  const magic = bytes.subarray(0, 4).toString('latin1');
  if (magic === 'II*\0' || magic === 'MM\0*') return 'tiff';
  const text = bytes.toString('utf8', 0, Math.min(bytes.length, 4096)).trimStart().toLowerCase();
  if (text.startsWith('{\\rtf')) return 'rtf';
  if (/^(<!doctype html|<html|<head|<body|<!--)/.test(text)) return 'html';
  return undefined;
}
