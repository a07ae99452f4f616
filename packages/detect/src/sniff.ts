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
  if (isPkcs12(bytes)) return 'p12';
  const brands = isoBrands(bytes);
  if (brands) return isAvif(brands) ? 'avif' : undefined;
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

/**
 * The brands of an ISO base media file (AVIF, HEIC, MP4, ...): its first box is `ftyp`, holding the
 * major brand, a version, then the compatible brands. Undefined when the file does not start so.
 */
export function isoBrands(bytes: Buffer): { major: string; compatible: string[] } | undefined {
  if (bytes.length < 16 || bytes.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  const size = bytes.readUInt32BE(0);
  if (size < 16 || size % 4 !== 0) return undefined;
  const end = Math.min(size, bytes.length);
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= end; at += 4) compatible.push(bytes.toString('latin1', at, at + 4));
  return { major: bytes.toString('latin1', 8, 12), compatible };
}

/** HEVC-coded brands: HEIC stills and sequences, which need a decoder Quire does not have. */
const heicBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);

/**
 * An AVIF image or sequence: `avif` or `avis` among its brands. Writers may put the generic `mif1`
 * first and `avif` among the compatible ones; a file whose major brand is a HEIC one is HEIC.
 */
function isAvif({ major, compatible }: { major: string; compatible: string[] }): boolean {
  if (heicBrands.has(major)) return false;
  return [major, ...compatible].some((b) => b === 'avif' || b === 'avis');
}

/** Whether the file is a HEIC (HEVC-coded HEIF) image: a phone photo Quire can name but not read. */
export async function isHeic(path: string): Promise<boolean> {
  const brands = isoBrands(await readStart(path, 256));
  return brands !== undefined && !isAvif(brands) && [brands.major, ...brands.compatible].some((b) => heicBrands.has(b));
}

/** pkcs7-data (1.2.840.113549.1.7.1), DER: the content type a PKCS#12 file's authenticated safe has. */
const pkcs7Data = Buffer.from('06092a864886f70d010701', 'hex');

/**
 * A PKCS#12 file (.p12, .pfx): DER, a SEQUENCE holding version 3 (02 01 03), then a SEQUENCE whose
 * content type is pkcs7-data. An X.509 certificate or key alone (DER or PEM) does not start so.
 */
export function isPkcs12(bytes: Buffer): boolean {
  if (bytes[0] !== 0x30 || bytes.length < 32) return false;
  // The outer length: short form, or long form of 1 to 4 bytes.
  const first = bytes[1]!;
  const at = first < 0x80 ? 2 : 2 + (first & 0x7f);
  if (first === 0x80 || first > 0x84) return false;
  if (!bytes.subarray(at, at + 3).equals(Buffer.from([0x02, 0x01, 0x03])) || bytes[at + 3] !== 0x30) return false;
  const inner = bytes[at + 4]!;
  const oid = at + 5 + (inner < 0x80 ? 0 : inner & 0x7f);
  return bytes.subarray(oid, oid + pkcs7Data.length).equals(pkcs7Data);
}
