import { basename, extname } from 'node:path';
import type { Request } from 'express';
import { pageRangesPattern } from '@quire/catalog';
import { uploadedFiles } from '@quire/http';
import { GotenbergError } from './errors.ts';

/** The extensions Gotenberg 8's LibreOffice module picks files by. */
// prettier-ignore
export const gotenbergExtensions = [
  '123', '602', 'abw', 'bib', 'bmp', 'cdr', 'cgm', 'cmx', 'csv', 'cwk', 'dbf', 'dif', 'doc', 'docm', 'docx', 'dot', 'dotm',
  'dotx', 'dxf', 'emf', 'eps', 'epub', 'fodg', 'fodp', 'fods', 'fodt', 'fopd', 'gif', 'htm', 'html', 'hwp', 'jpeg', 'jpg',
  'key', 'ltx', 'lwp', 'mcw', 'met', 'mml', 'mw', 'numbers', 'odd', 'odg', 'odm', 'odp', 'ods', 'odt', 'otg', 'oth', 'otp',
  'ots', 'ott', 'pages', 'pbm', 'pcd', 'pct', 'pcx', 'pdb', 'pdf', 'pgm', 'png', 'pot', 'potm', 'potx', 'ppm', 'pps', 'ppt',
  'pptm', 'pptx', 'psd', 'psw', 'pub', 'pwp', 'pxl', 'ras', 'rtf', 'sda', 'sdc', 'sdd', 'sdp', 'sgl', 'slk', 'smf', 'stc',
  'std', 'sti', 'stw', 'svg', 'svm', 'swf', 'sxc', 'sxd', 'sxg', 'sxi', 'sxm', 'sxw', 'tga', 'tif', 'tiff', 'txt', 'uof',
  'uop', 'uos', 'vdx', 'vor', 'vsd', 'vsdm', 'vsdx', 'wb2', 'wk1', 'wks', 'wmf', 'wpd', 'wpg', 'wps', 'xbm', 'xhtml', 'xls',
  'xlsb', 'xlsm', 'xlsx', 'xlt', 'xltm', 'xltx', 'xlw', 'xml', 'xpm', 'zabw', 'ppsx', 'ppsm', 'sdw', 'uot',
].map((e) => `.${e}`);

/** Form fields read the way Gotenberg reads them (Go's strconv), errors gathered into one 400. */
class Form {
  readonly errors: string[] = [];
  constructor(private readonly values: Record<string, unknown>) {}

  string(key: string, fallback = ''): string {
    const v = this.values[key];
    const value = Array.isArray(v) ? v[0] : v;
    return typeof value === 'string' && value !== '' ? value : fallback;
  }

  /** Undefined when not given, so that only what the client set reaches the export. */
  bool(key: string): boolean | undefined {
    const raw = this.string(key);
    if (raw === '') return undefined;
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw)) return true;
    if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw)) return false;
    this.errors.push(
      `form field '${key}' is invalid (got '${raw}', resulting to strconv.ParseBool: parsing "${raw}": invalid syntax)`,
    );
    return undefined;
  }

  int(key: string, check: (n: number) => string | undefined): number | undefined {
    const raw = this.string(key);
    if (raw === '') return undefined;
    const n = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
    const problem = Number.isSafeInteger(n) ? check(n) : `strconv.Atoi: parsing "${raw}": invalid syntax`;
    if (problem) {
      this.errors.push(`form field '${key}' is invalid (got '${raw}', resulting to ${problem})`);
      return undefined;
    }
    return n;
  }
}

/** Gotenberg boolean fields and the PDF export's FilterData each one sets. */
const exportBooleans: [string, string][] = [
  ['exportFormFields', 'ExportFormFields'],
  ['allowDuplicateFieldNames', 'AllowDuplicateFieldNames'],
  ['exportBookmarks', 'ExportBookmarks'],
  ['exportBookmarksToPdfDestination', 'ExportBookmarksToPDFDestination'],
  ['exportPlaceholders', 'ExportPlaceholders'],
  ['exportNotes', 'ExportNotes'],
  ['exportNotesPages', 'ExportNotesPages'],
  ['exportOnlyNotesPages', 'ExportOnlyNotesPages'],
  ['exportNotesInMargin', 'ExportNotesInMargin'],
  ['convertOooTargetToPdfTarget', 'ConvertOOoTargetToPDFTarget'],
  ['exportLinksRelativeFsys', 'ExportLinksRelativeFsys'],
  ['exportHiddenSlides', 'ExportHiddenSlides'],
  ['skipEmptyPages', 'IsSkipEmptyPages'],
  ['addOriginalDocumentAsStream', 'IsAddStream'],
  ['singlePageSheets', 'SinglePageSheets'],
  ['losslessImageCompression', 'UseLosslessCompression'],
  ['reduceImageResolution', 'ReduceImageResolution'],
];

const pdfaVersions: Record<string, number> = { 'PDF/A-1b': 1, 'PDF/A-2b': 2, 'PDF/A-3b': 3 };

export interface ConvertForm {
  /** The uploads Gotenberg would pick, by their names' extensions, in its order. */
  files: { path: string; name: string }[];
  password?: string;
  landscape: boolean;
  /** LibreOffice's PageRange syntax, the catalog's page ranges; empty for every page. */
  pageRange: string;
  merge: boolean;
  exportOptions: Record<string, string | number | boolean>;
}

/** Reads the LibreOffice route's form; a bad field is a 400 naming every field at fault, as Gotenberg's. */
export function readConvertForm(req: Request): ConvertForm {
  const form = new Form((req.body ?? {}) as Record<string, unknown>);
  const exportOptions: Record<string, string | number | boolean> = {};
  for (const [field, filterKey] of exportBooleans) {
    const v = form.bool(field);
    if (v !== undefined) exportOptions[filterKey] = v;
  }
  form.bool('updateIndexes'); // validated as Gotenberg does; LibreOffice updates indexes on export anyway
  form.bool('flatten');
  form.bool('nativePdfFormats');
  const quality = form.int('quality', (n) =>
    n < 1 ? 'value is inferior to 1' : n > 100 ? 'value is superior to 100' : undefined,
  );
  if (quality !== undefined) exportOptions.Quality = quality;
  const maxRes = form.int('maxImageResolution', (n) =>
    [75, 150, 300, 600, 1200].includes(n) ? undefined : 'value is not 75, 150, 300, 600 or 1200',
  );
  if (maxRes !== undefined) exportOptions.MaxImageResolution = maxRes;
  const pdfua = form.bool('pdfua') ?? false;
  const landscape = form.bool('landscape') ?? false;
  const merge = form.bool('merge') ?? false;

  const files = uploadedFiles(req)
    .map((f) => ({ path: f.path, name: basename(utf8Name(f.originalname).replace(/\\/g, '/')).normalize('NFC') }))
    .filter((f) => gotenbergExtensions.includes(extname(f.name).toLowerCase()))
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  if (files.length === 0) form.errors.push(`no form file found for extensions: [${gotenbergExtensions.join(' ')}]`);
  if (form.errors.length) throw new GotenbergError(400, `Invalid form data: ${form.errors.join('; ')}`);

  const pdfa = form.string('pdfa');
  if (pdfa && !pdfaVersions[pdfa])
    throw new GotenbergError(400, `A PDF format in '{PdfA:${pdfa} PdfUa:${pdfua}}' is not supported`);
  if (pdfa) exportOptions.SelectPdfVersion = pdfaVersions[pdfa]!;
  if (pdfua) {
    exportOptions.UseTaggedPDF = true;
    exportOptions.PDFUACompliance = true;
  }
  const pageRange = form.string('nativePageRanges').trim();
  if (pageRange && !pageRangesPattern.test(pageRange)) {
    throw new GotenbergError(400, `Malformed page ranges '${pageRange}' (nativePageRanges)`);
  }
  const password = form.string('password');
  return { files, ...(password ? { password } : {}), landscape, pageRange, merge, exportOptions };
}

/**
 * Multer reads file names in multipart headers as latin1 unless told otherwise; clients (browsers,
 * undici, Go) send UTF-8. Re-read a name as UTF-8 when its bytes are valid UTF-8.
 */
export function utf8Name(name: string): string {
  if (!/[\u0080-\u00ff]/.test(name) || [...name].some((c) => c.charCodeAt(0) > 0xff)) return name;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(name, 'latin1'));
  } catch {
    return name;
  }
}

/** Gotenberg-Output-Filename, reduced to a base name as Gotenberg does. */
export function outputFilename(req: Request): string | undefined {
  const given = req.get('gotenberg-output-filename');
  if (!given) return undefined;
  const base = basename(given.replace(/\\/g, '/')).replace(/[\r\n"]/g, '');
  return base || undefined;
}
