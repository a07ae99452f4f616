import type { FileKind } from '@quire/catalog';
import yauzl from 'yauzl';
import { readStart } from './file-start.ts';
import { ole2RootNames } from './ole2.ts';

/** The LibreOffice application that opens a document, and so the PDF export filter it uses. */
export type Family = 'writer' | 'calc' | 'impress';

export interface CsvDialect {
  /** The field separator. */
  separator: string;
  encoding: 'utf8' | 'latin1';
  /** The most fields seen on a line, so that every column can be read as text. */
  columns: number;
}

/** What an office document is, judged by its bytes alone. */
export interface OfficeFormat {
  /** The format, as the usual extension; the name LibreOffice is given ends with it. */
  ext: string;
  /** The catalog's kind for it, when the catalog has one (not for sxw, or encrypted OOXML). */
  kind?: FileKind;
  /** Which application opens it; unknown for encrypted OOXML until it is opened. */
  family?: Family;
  /** Encrypted OOXML: an OLE2 envelope around a docx, xlsx or pptx that only its password opens. */
  encrypted?: boolean;
  /**
   * Whether opening it takes a password, where its bytes tell cheaply: encrypted OOXML, and
   * OpenDocument whose manifest lists encrypted entries; a zip package without them takes none.
   * Undefined for legacy binary and text formats, whose encryption lies deeper.
   */
  protection?: 'required' | 'none';
  csv?: CsvDialect;
}

/** The catalog kinds this service reads, with the application that opens each. */
export const familyOfKind: Partial<Record<FileKind, Family>> = {
  doc: 'writer',
  docx: 'writer',
  odt: 'writer',
  rtf: 'writer',
  xls: 'calc',
  xlsx: 'calc',
  ods: 'calc',
  csv: 'calc',
  ppt: 'impress',
  pptx: 'impress',
  ppsx: 'impress',
  odp: 'impress',
};

const head = 64 * 1024;

/**
 * Tells Word, Excel and PowerPoint documents (97-2003 and OOXML), OpenDocument (zipped and flat),
 * StarOffice 1.x, RTF and CSV apart by content: OOXML by its main part's content type, OLE2 by its
 * streams, OpenDocument by its `mimetype`. Undefined for anything else.
 */
export async function detectOfficeFormat(path: string): Promise<OfficeFormat | undefined> {
  const bytes = await readStart(path, head);
  if (bytes.length < 4) return undefined;
  if (bytes.readUInt32BE(0) === 0xd0cf11e0) return fromOle2(path);
  if (bytes.readUInt32BE(0) === 0x504b0304) return fromZip(path);
  return fromText(bytes);
}

/**
 * The catalog kind of an office document, for the upload check: what `sniffKind` cannot tell (OLE2,
 * CSV, flat OpenDocument, a PowerPoint show). Encrypted OOXML counts as the OOXML kind of the tool it
 * is sent to, since only its password tells which it is; the service checks after opening it.
 */
export async function officeKindFor(path: string, accepted: readonly FileKind[]): Promise<FileKind | undefined> {
  const format = await detectOfficeFormat(path);
  if (!format) return undefined;
  if (format.kind) return accepted.includes(format.kind) ? format.kind : undefined;
  if (format.encrypted) return accepted.find((k) => k === 'docx' || k === 'xlsx' || k === 'pptx');
  return undefined;
}

async function fromOle2(path: string): Promise<OfficeFormat | undefined> {
  const names = await ole2RootNames(path);
  if (!names) return undefined;
  const has = (n: string) => names.includes(n);
  if (has('EncryptionInfo') && has('EncryptedPackage')) return { ext: 'docx', encrypted: true, protection: 'required' };
  if (has('WordDocument')) return { ext: 'doc', kind: 'doc', family: 'writer' };
  if (has('Workbook') || has('Book')) return { ext: 'xls', kind: 'xls', family: 'calc' };
  if (has('PowerPoint Document')) return { ext: 'ppt', kind: 'ppt', family: 'impress' };
  return undefined;
}

/** OOXML main parts by content type: the base, template and macro-enabled variants alike (macros never run). */
const ooxmlMainTypes: [RegExp, OfficeFormat][] = [
  [
    /wordprocessingml\.(document|template)\.main\+xml|ms-word\.(document|template)\.macroenabled/i,
    { ext: 'docx', kind: 'docx', family: 'writer' },
  ],
  [
    /spreadsheetml\.(sheet|template)\.main\+xml|ms-excel\.(sheet|template)\.macroenabled/i,
    { ext: 'xlsx', kind: 'xlsx', family: 'calc' },
  ],
  [
    /presentationml\.slideshow\.main\+xml|ms-powerpoint\.slideshow\.macroenabled/i,
    { ext: 'ppsx', kind: 'ppsx', family: 'impress' },
  ],
  [
    /presentationml\.(presentation|template)\.main\+xml|ms-powerpoint\.(presentation|template)\.macroenabled/i,
    { ext: 'pptx', kind: 'pptx', family: 'impress' },
  ],
];

/** OpenDocument and StarOffice 1.x by the `mimetype` they declare. */
const odfTypes: Record<string, OfficeFormat> = {
  'application/vnd.oasis.opendocument.text': { ext: 'odt', kind: 'odt', family: 'writer' },
  'application/vnd.oasis.opendocument.text-template': { ext: 'ott', kind: 'odt', family: 'writer' },
  'application/vnd.oasis.opendocument.spreadsheet': { ext: 'ods', kind: 'ods', family: 'calc' },
  'application/vnd.oasis.opendocument.spreadsheet-template': { ext: 'ots', kind: 'ods', family: 'calc' },
  'application/vnd.oasis.opendocument.presentation': { ext: 'odp', kind: 'odp', family: 'impress' },
  'application/vnd.oasis.opendocument.presentation-template': { ext: 'otp', kind: 'odp', family: 'impress' },
  'application/vnd.sun.xml.writer': { ext: 'sxw', family: 'writer' },
  'application/vnd.sun.xml.calc': { ext: 'sxc', family: 'calc' },
  'application/vnd.sun.xml.impress': { ext: 'sxi', family: 'impress' },
};

/** Flat (single XML file) OpenDocument, told by the same declared type. */
const flatOdfExt: Record<string, string> = { odt: 'fodt', ods: 'fods', odp: 'fodp' };

async function fromZip(path: string): Promise<OfficeFormat | undefined> {
  let parts: Map<string, string>;
  try {
    parts = await readZipParts(path, ['mimetype', '[Content_Types].xml', 'META-INF/manifest.xml']);
  } catch {
    return undefined;
  }
  // OpenDocument 1.3 part 3, 4.16: an encrypted entry has a <manifest:encryption-data> child.
  const protection = parts.get('META-INF/manifest.xml')?.includes('encryption-data') ? 'required' : 'none';
  const mimetype = parts.get('mimetype')?.trim();
  if (mimetype && odfTypes[mimetype]) return { ...odfTypes[mimetype], protection };
  const types = parts.get('[Content_Types].xml');
  if (types) {
    for (const [re, format] of ooxmlMainTypes) if (re.test(types)) return { ...format, protection };
  }
  return undefined;
}

/** Reads a few small named entries of a zip (at most 1 MB each), ignoring the rest. */
function readZipParts(path: string, wanted: string[]): Promise<Map<string, string>> {
  const maxEntries = 10_000;
  const maxPart = 1024 * 1024;
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('unreadable zip'));
      const found = new Map<string, string>();
      let seen = 0;
      const done = () => {
        zip.close();
        resolve(found);
      };
      zip.on('error', reject);
      zip.on('end', () => resolve(found));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (++seen > maxEntries) return done();
        if (!wanted.includes(entry.fileName) || entry.uncompressedSize > maxPart) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            found.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            if (found.size === wanted.length) done();
            else zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

function fromText(bytes: Buffer): OfficeFormat | undefined {
  if (bytes.includes(0)) return undefined;
  const utf8 = isUtf8(bytes);
  let text = bytes.toString(utf8 ? 'utf8' : 'latin1');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const start = text.trimStart();
  if (start.startsWith('{\\rtf')) return { ext: 'rtf', kind: 'rtf', family: 'writer' };
  if (start.startsWith('<')) return flatOdf(start.slice(0, 8192));
  const dialect = csvDialect(text, bytes.length === head, utf8 ? 'utf8' : 'latin1');
  return dialect ? { ext: 'csv', kind: 'csv', family: 'calc', csv: dialect } : undefined;
}

function flatOdf(start: string): OfficeFormat | undefined {
  if (!/<office:document[\s>]/.test(start)) return undefined;
  const declared = /office:mimetype\s*=\s*["']([^"']+)["']/.exec(start)?.[1];
  const format = declared ? odfTypes[declared] : undefined;
  if (!format?.kind || !flatOdfExt[format.ext]) return undefined;
  return { ...format, ext: flatOdfExt[format.ext]! };
}

/** Valid UTF-8, allowing a sequence cut short at the end of what was read. */
function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, trimPartial(bytes)));
    return true;
  } catch {
    return false;
  }
}

function trimPartial(bytes: Buffer): number {
  let end = bytes.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = bytes[end - i]!;
    if ((b & 0xc0) === 0x80) continue;
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      if (need > i) end -= i;
    }
    break;
  }
  return end;
}

const separators = [',', ';', '\t', '|'];

/**
 * Whether text is a table of delimited values: at least two lines, every line with the same number
 * of fields (two or more) for one separator, quotes respected. Prose and code fail this quickly.
 */
function csvDialect(text: string, truncated: boolean, encoding: 'utf8' | 'latin1'): CsvDialect | undefined {
  if (hasControlCharacters(text)) return undefined;
  const lines = splitRecords(text);
  // The last record may be cut short by the read limit.
  if (truncated && lines.length > 1) lines.pop();
  const records = lines.slice(0, 200).filter((l) => l.trim() !== '');
  if (records.length < 2) return undefined;
  let best: CsvDialect | undefined;
  for (const separator of separators) {
    const counts = records.map((r) => countFields(r, separator));
    const first = counts[0]!;
    if (first < 2 || !counts.every((c) => c === first)) continue;
    if (!best || first > best.columns) best = { separator, encoding, columns: first };
  }
  return best;
}

/** Control characters other than tab, line feeds and form feed: binary, not text. */
function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0b && c !== 0x0c && c !== 0x0d) return true;
  }
  return false;
}

/** Records split on line ends outside quotes. */
function splitRecords(text: string): string[] {
  const records: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) {
      records.push(text.slice(start, i));
      if (c === '\r' && text[i + 1] === '\n') i++;
      start = i + 1;
    }
  }
  if (start < text.length) records.push(text.slice(start));
  return records;
}

function countFields(record: string, separator: string): number {
  let n = 1;
  let quoted = false;
  for (const c of record) {
    if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) n++;
  }
  return n;
}
