import { basename, extname } from 'node:path';
import type { Request } from 'express';
import { pageRangesPattern } from '@quire/catalog';
import { uploadedFiles } from '@quire/http';
import { pdfDate, type InfoValue, type PdfRestrictions } from '@quire/pdf';
import { GotenbergError, pageRangesError } from './errors.ts';
import { readMarks, type Mark, type MarkKind } from './marks.ts';

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

  /** Whether the client sent the field at all, even empty. */
  has(key: string): boolean {
    return this.values[key] !== undefined;
  }

  /** A field Gotenberg reads that this service refuses rather than ignores. */
  refuse(key: string, why: string): void {
    if (this.has(key))
      this.errors.push(`form field '${key}' is invalid (got '${this.string(key)}', resulting to ${why})`);
  }

  invalid(key: string, why: string): void {
    this.errors.push(`form field '${key}' is invalid (got '${this.string(key)}', resulting to ${why})`);
  }

  /** Every value of a field sent several times, in order. */
  strings(key: string): string[] {
    const v = this.values[key];
    return (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => (typeof x === 'string' ? x : ''));
  }

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
  ['firstPageOnLeft', 'FirstPageOnLeft'],
  ['resizeWindowToInitialPage', 'ResizeWindowToInitialPage'],
  ['centerWindow', 'CenterWindow'],
  ['openInFullScreenMode', 'OpenInFullScreenMode'],
  ['displayPDFDocumentTitle', 'DisplayPDFDocumentTitle'],
  ['hideViewerMenubar', 'HideViewerMenubar'],
  ['hideViewerToolbar', 'HideViewerToolbar'],
  ['hideViewerWindowControls', 'HideViewerWindowControls'],
  ['useTransitionEffects', 'UseTransitionEffects'],
];

const oneOf = (values: number[], said: string) => (n: number) => (values.includes(n) ? undefined : said);
const atLeast = (min: number) => (n: number) => (n < min ? `value is inferior to ${min}` : undefined);
const any = () => undefined;

/** Gotenberg integer fields, the PDF export's FilterData each one sets, and what Gotenberg accepts. */
const exportIntegers: [string, string, (n: number) => string | undefined][] = [
  ['initialView', 'InitialView', oneOf([0, 1, 2], 'value is not 0, 1 or 2')],
  ['initialPage', 'InitialPage', atLeast(1)],
  ['magnification', 'Magnification', oneOf([0, 1, 2, 3, 4], 'value is not 0, 1, 2, 3 or 4')],
  ['zoom', 'Zoom', atLeast(1)],
  ['pageLayout', 'PageLayout', oneOf([0, 1, 2, 3], 'value is not 0, 1, 2 or 3')],
  [
    'openBookmarkLevels',
    'OpenBookmarkLevels',
    (n) => (n !== -1 && (n < 1 || n > 10) ? 'value is not -1 or between 1 and 10' : undefined),
  ],
  ['quality', 'Quality', (n) => (n < 1 ? 'value is inferior to 1' : n > 100 ? 'value is superior to 100' : undefined)],
  [
    'maxImageResolution',
    'MaxImageResolution',
    oneOf([75, 150, 300, 600, 1200], 'value is not 75, 150, 300, 600 or 1200'),
  ],
  ['nativeWatermarkColor', 'WatermarkColor', any],
  ['nativeWatermarkFontHeight', 'WatermarkFontHeight', atLeast(0)],
  ['nativeWatermarkRotateAngle', 'WatermarkRotateAngle', any],
];

/** Gotenberg text fields and the PDF export's FilterData each one sets (LibreOffice's own watermarks). */
const exportStrings: [string, string][] = [
  ['nativeWatermarkText', 'Watermark'],
  ['nativeWatermarkFontName', 'WatermarkFontName'],
  ['nativeTiledWatermarkText', 'TiledWatermark'],
];

/**
 * Fields of Gotenberg 8.36's route this service refuses with a 400 rather than ignore: image
 * optimisation (Ghostscript's, which this service lacks), Factur-X, the embedded files' metadata, and
 * fetching the documents from URLs.
 */
const refused: [string, string][] = [
  ['optimizeImages', 'image optimization is not supported by this server'],
  ['imageQuality', 'image optimization is not supported by this server'],
  ['facturxConformanceLevel', 'Factur-X is not supported by this server'],
  ['facturxDocumentType', 'Factur-X is not supported by this server'],
  ['facturxVersion', 'Factur-X is not supported by this server'],
  ['embedsMetadata', "embedded files' metadata is not supported by this server"],
  ['downloadFrom', 'this server never downloads anything; send the files'],
];

/** File fields besides `files` and `embeds` that Gotenberg reads, refused here. */
export const refusedFileFields: Record<string, string> = {
  facturxXml: 'Factur-X is not supported by this server',
};

/** File fields of the marks' images and PDFs (see marks.ts). */
export const markFileFields: MarkKind[] = ['watermark', 'stamp'];

/** The qpdf restrictions each Gotenberg permission field lifts; every one is granted by default. */
const permissionFields = {
  allowPrinting: 'print',
  allowCopying: 'extract',
  allowModifying: 'modifyOther',
  allowAssembling: 'assemble',
  allowAnnotating: 'annotate',
  allowFillingForms: 'form',
} as const satisfies Record<string, keyof PdfRestrictions>;

export interface Encrypt {
  userPassword: string;
  ownerPassword?: string;
  restrictions: PdfRestrictions;
  /** Each permission field as given (true by default), for the result's verification. */
  granted: Record<keyof typeof permissionFields, boolean>;
}

export interface Split {
  mode: 'intervals' | 'pages';
  /** Pages per part (intervals), or the pages to take, one part each (pages). */
  span: string;
  /** Pages mode: the pages taken as one PDF rather than one each. */
  unify: boolean;
}

const pdfaVersions: Record<string, number> = { 'PDF/A-1b': 1, 'PDF/A-2b': 2, 'PDF/A-3b': 3 };
export type PdfA = 'PDF/A-1b' | 'PDF/A-2b' | 'PDF/A-3b';

export interface ConvertForm {
  /** The uploads Gotenberg would pick, by their names' extensions, in its order. */
  files: { path: string; name: string }[];
  password?: string;
  landscape: boolean;
  /** LibreOffice's PageRange syntax, the catalog's page ranges; empty for every page. */
  pageRange: string;
  merge: boolean;
  exportOptions: Record<string, string | number | boolean>;
  pdfa?: PdfA;
  split?: Split;
  metadata?: Record<string, InfoValue>;
  flatten: boolean;
  rotate?: { angle: 90 | 180 | 270; pages: string };
  /** Drawn under the pages' content, then over it, in the order sent. */
  watermarks: Mark[];
  stamps: Mark[];
  /** Files to attach to every result, under their own names. */
  embeds: { path: string; name: string }[];
  encrypt?: Encrypt;
}

/** Reads the LibreOffice route's form; a bad field is a 400 naming every field at fault, as Gotenberg's. */
export function readConvertForm(req: Request): ConvertForm {
  const form = new Form((req.body ?? {}) as Record<string, unknown>);
  const exportOptions: Record<string, string | number | boolean> = {};
  for (const [field, filterKey] of exportBooleans) {
    const v = form.bool(field);
    if (v !== undefined) exportOptions[filterKey] = v;
  }
  for (const [field, filterKey, check] of exportIntegers) {
    const v = form.int(field, check);
    if (v !== undefined) exportOptions[filterKey] = v;
  }
  for (const [field, filterKey] of exportStrings) {
    const v = form.string(field);
    if (v) exportOptions[filterKey] = v;
  }
  form.bool('updateIndexes'); // validated as Gotenberg does; LibreOffice updates indexes on export anyway
  const flatten = form.bool('flatten') ?? false;
  // Whether LibreOffice or the PDF engine writes PDF/A: here always LibreOffice, the format the same.
  form.bool('nativePdfFormats');
  const pdfua = form.bool('pdfua') ?? false;
  const landscape = form.bool('landscape') ?? false;
  const merge = form.bool('merge') ?? false;
  const split = readSplit(form);
  const metadata = readMetadata(form);
  const rotate = readRotate(form);
  const encrypt = readEncrypt(form);
  const [watermarks, stamps] = markFileFields.map((kind) => {
    const files = uploadedFiles(req).filter((f) => f.fieldname === kind);
    const read = readMarks(
      kind,
      form,
      files.map((f) => f.path),
    );
    form.errors.push(...read.errors);
    return read.marks;
  }) as [Mark[], Mark[]];
  for (const [field, why] of refused) form.refuse(field, why);
  for (const [field, why] of Object.entries(refusedFileFields)) {
    const name = uploadedFiles(req).find((f) => f.fieldname === field)?.originalname;
    if (name !== undefined)
      form.errors.push(`form file '${field}' is invalid (got '${utf8Name(name)}', resulting to ${why})`);
  }
  const webhook = Object.keys(req.headers).find((h) => h.startsWith('gotenberg-webhook-'));
  if (webhook)
    form.errors.push(`header '${webhook}' is invalid (resulting to webhooks are not supported by this server)`);

  const named = (f: Express.Multer.File) => ({
    path: f.path,
    name: basename(utf8Name(f.originalname).replace(/\\/g, '/')).normalize('NFC'),
  });
  const files = uploadedFiles(req)
    .filter((f) => f.fieldname === 'files')
    .map(named)
    .filter((f) => gotenbergExtensions.includes(extname(f.name).toLowerCase()))
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  const embeds = uploadedFiles(req)
    .filter((f) => f.fieldname === 'embeds')
    .map(named);
  if (files.length === 0) form.errors.push(`no form file found for extensions: [${gotenbergExtensions.join(' ')}]`);
  if (form.errors.length) throw new GotenbergError(400, `Invalid form data: ${form.errors.join('; ')}`);

  const pdfa = form.string('pdfa');
  if (pdfa && !pdfaVersions[pdfa])
    throw new GotenbergError(
      400,
      `The PDF format '${pdfa}' is not supported. Valid formats include PDF/A-1b, PDF/A-2b, PDF/A-3b, and PDF/UA.`,
    );
  // PDF/A forbids encryption: Gotenberg refuses a user password; an owner password alone is refused too,
  // since the result, encrypted all the same, could not be PDF/A.
  if (pdfa && encrypt) throw new GotenbergError(400, 'Invalid form data: PDF/A format is incompatible with encryption');
  if (pdfa && embeds.length && pdfa !== 'PDF/A-3b')
    throw new GotenbergError(
      400,
      `Invalid form data: PDF format '${pdfa}' does not support embedded files; only PDF/A-3 variants allow attachments`,
    );
  // LibreOffice writes PDF/A as it converts; marks drawn afterwards have their fonts embedded, but
  // PDF/A-1 allows no transparency, which marks may have (opacity, images' alpha, other PDFs' pages).
  if (pdfa === 'PDF/A-1b' && (watermarks.length || stamps.length))
    throw new GotenbergError(
      400,
      'Invalid form data: watermarks and stamps cannot be drawn on PDF/A-1b by this server',
    );
  if (pdfa) exportOptions.SelectPdfVersion = pdfaVersions[pdfa]!;
  if (pdfua) {
    exportOptions.UseTaggedPDF = true;
    exportOptions.PDFUACompliance = true;
  }
  const pageRange = form.string('nativePageRanges').trim();
  if (pageRange && !pageRangesPattern.test(pageRange)) {
    throw new GotenbergError(400, pageRangesError(pageRange, files[0]!.name));
  }
  const password = form.string('password');
  return {
    files,
    ...(password ? { password } : {}),
    landscape,
    pageRange,
    merge,
    exportOptions,
    ...(pdfa ? { pdfa: pdfa as PdfA } : {}),
    ...(split ? { split } : {}),
    ...(metadata ? { metadata } : {}),
    flatten,
    ...(rotate ? { rotate } : {}),
    watermarks,
    stamps,
    embeds,
    ...(encrypt ? { encrypt } : {}),
  };
}

/** Gotenberg's answer to a split it cannot make (a span that names no pages). */
export const splitError =
  "The requested split mode is not supported, or no PDF engine could process it. Valid modes: 'intervals', 'pages'.";

function readSplit(form: Form): Split | undefined {
  const mode = form.string('splitMode');
  if (mode && mode !== 'intervals' && mode !== 'pages') {
    form.invalid('splitMode', "wrong value, expected either 'intervals' or 'pages'");
    return undefined;
  }
  const span = form.string('splitSpan').replace(/\s+/g, '');
  if (mode === 'intervals') {
    const n = /^[+-]?\d+$/.test(span) ? Number(span) : NaN;
    if (Number.isNaN(n)) form.invalid('splitSpan', `strconv.Atoi: parsing "${span}": invalid syntax`);
    else if (n < 1) form.invalid('splitSpan', 'value is inferior to 1');
  }
  const unify = form.bool('splitUnify') ?? false;
  if (unify && mode !== 'pages') form.invalid('splitUnify', `unify is not available for split mode '${mode}'`);
  if (!mode) return undefined;
  return { mode: mode as Split['mode'], span, unify };
}

function readMetadata(form: Form): Record<string, InfoValue> | undefined {
  const raw = form.string('metadata');
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    form.invalid('metadata', `unmarshal metadata: ${(err as Error).message}`);
    return undefined;
  }
  const valid = (v: unknown) =>
    ['string', 'number', 'boolean'].includes(typeof v) || (Array.isArray(v) && v.every((w) => typeof w === 'string'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    form.invalid('metadata', 'unmarshal metadata: not a JSON object');
    return undefined;
  }
  const entries = Object.entries(parsed);
  const bad = entries.find(([k, v]) => !valid(v) || !/^[A-Za-z][A-Za-z0-9_.-]*$/.test(k));
  if (bad) {
    form.invalid('metadata', `the entry '${bad[0]}' is not a name with text, a number, a boolean or a list of text`);
    return undefined;
  }
  const dates = entries.find(([k, v]) => ['CreateDate', 'CreationDate', 'ModDate'].includes(k) && !pdfDate(String(v)));
  if (dates) {
    form.invalid('metadata', `the entry '${dates[0]}' is not a date`);
    return undefined;
  }
  const trapped = entries.find(([k, v]) => k === 'Trapped' && !/^(true|false|unknown)$/i.test(String(v)));
  if (trapped) {
    form.invalid('metadata', "the entry 'Trapped' is not True, False or Unknown");
    return undefined;
  }
  return entries.length ? (parsed as Record<string, InfoValue>) : undefined;
}

function readRotate(form: Form): ConvertForm['rotate'] {
  const angle = form.int('rotateAngle', (n) =>
    [90, 180, 270].includes(n) ? undefined : 'wrong value, expected 90, 180, or 270',
  );
  const pages = form.string('rotatePages').replace(/\s+/g, '');
  if (pages && !pageRangesPattern.test(pages)) form.invalid('rotatePages', 'not a list of page ranges');
  return angle === undefined ? undefined : { angle: angle as 90 | 180 | 270, pages };
}

function readEncrypt(form: Form): Encrypt | undefined {
  const granted = Object.fromEntries(
    Object.keys(permissionFields).map((field) => [field, form.bool(field) ?? true]),
  ) as Encrypt['granted'];
  const userPassword = form.string('userPassword');
  const ownerPassword = form.string('ownerPassword');
  const restricted = Object.values(granted).includes(false);
  if (!userPassword && !ownerPassword) {
    if (restricted) form.errors.push("permission restrictions require a 'userPassword' or 'ownerPassword'");
    return undefined;
  }
  const yn = (field: keyof typeof permissionFields): 'y' | 'n' => (granted[field] ? 'y' : 'n');
  const restrictions: PdfRestrictions = {
    print: granted.allowPrinting ? 'full' : 'none',
    extract: yn('allowCopying'),
    modifyOther: yn('allowModifying'),
    assemble: yn('allowAssembling'),
    annotate: yn('allowAnnotating'),
    form: yn('allowFillingForms'),
  };
  return { userPassword, ...(ownerPassword ? { ownerPassword } : {}), restrictions, granted };
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
