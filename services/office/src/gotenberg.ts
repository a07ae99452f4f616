import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type express from 'express';
import type { Request, Response } from 'express';
import { findTool, type Tool } from '@quire/catalog';
import {
  propertiesHeader,
  qpdf,
  ToolError,
  trackRequest,
  uploadedFiles,
  uploadMiddleware,
  verifyCounted,
  workdirMiddleware,
  type Job,
  type ServiceKit,
} from '@quire/service-kit';
import yazl from 'yazl';
import { convertDocument } from './convert.ts';
import { detectOfficeFormat, type OfficeFormat } from '@quire/service-kit';
import { EngineError, type OfficeEngine } from './engine/engine.ts';
import { toolFamilies } from './tools.ts';

/**
 * Gotenberg 8's LibreOffice route, so that Gotenberg clients (chromiumly in the gateway) talk to
 * this service, and an operator can put the official gotenberg/gotenberg:8 image in its place by
 * changing one URL. Same form fields, same status codes, plain-text errors, same headers. Two
 * differences, both on the safe side: documents are judged by content, not by their names'
 * extensions (a file that is not an office document is a 415), and `downloadFrom` and webhooks are
 * ignored (this service never fetches anything).
 */

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

/** The route's name in metrics and logs, beside the catalog's tool ids. */
const route = 'libreoffice-convert';

/**
 * The catalog tool whose promise a converted document is held to: its application's. Drawings, which
 * no tool takes, are held to the text documents' (every office conversion promises the same).
 */
function promiseOf(family: string): Tool {
  const id = Object.entries(toolFamilies).find(([, f]) => f === family)?.[0] ?? 'word-to-pdf';
  return findTool(id)!;
}

/** An answer in Gotenberg's manner: a status and a short plain-text message. */
export class GotenbergError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

const statusText: Record<number, string> = {
  413: 'Request Entity Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

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

/** LibreOffice's PageRange syntax: numbers and ranges, comma-separated, open ends allowed. */
const pageRangesPattern = /^\s*\d+\s*(-\s*\d*\s*)?(,\s*\d+\s*(-\s*\d*\s*)?)*$/;

interface ParsedForm {
  files: { path: string; name: string }[];
  password?: string;
  landscape: boolean;
  pageRange: string;
  merge: boolean;
  exportOptions: Record<string, string | number | boolean>;
}

function parseForm(req: Request): ParsedForm {
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
  const versions: Record<string, number> = { 'PDF/A-1b': 1, 'PDF/A-2b': 2, 'PDF/A-3b': 3 };
  if (pdfa && !versions[pdfa])
    throw new GotenbergError(400, `A PDF format in '{PdfA:${pdfa} PdfUa:${pdfua}}' is not supported`);
  if (pdfa) exportOptions.SelectPdfVersion = versions[pdfa]!;
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

/** An engine failure in Gotenberg's words: what its own LibreOffice route answers in the same case. */
export function toGotenbergError(err: unknown, pageRange: string): GotenbergError {
  if (err instanceof GotenbergError) return err;
  if (err instanceof ToolError) {
    if (err.code === 'busy') return new GotenbergError(429, statusText[429]!, err.headers, { cause: err });
    if (err.code === 'timeout') return new GotenbergError(503, statusText[503]!, {}, { cause: err });
    if (err.code === 'file_too_large') return new GotenbergError(413, statusText[413]!, {}, { cause: err });
    if (err.code === 'too_many_files' || err.code === 'invalid_option')
      return new GotenbergError(400, `Invalid form data: ${err.message}`, {}, { cause: err });
    return new GotenbergError(500, statusText[500]!, {}, { cause: err });
  }
  if (!(err instanceof EngineError)) return new GotenbergError(500, statusText[500]!, {}, { cause: err });
  const failed = 'LibreOffice failed to process a document';
  switch (err.kind) {
    case 'password_required':
      return new GotenbergError(400, `${failed}: a password is required to open it.`, {}, { cause: err });
    case 'wrong_password':
      return new GotenbergError(400, `${failed}: the password given is invalid.`, {}, { cause: err });
    case 'load_failed':
      return new GotenbergError(400, `${failed}: it is damaged or could not be read.`, {}, { cause: err });
    case 'export_failed':
      return new GotenbergError(
        400,
        pageRange
          ? `${failed}: the page ranges '${pageRange}' (nativePageRanges) do not fit it.`
          : `${failed}: it could not be exported to PDF.`,
        {},
        { cause: err },
      );
    case 'wrong_family':
      return new GotenbergError(415, 'Unsupported file: not a document LibreOffice converts.', {}, { cause: err });
    case 'timeout':
    case 'unavailable':
      return new GotenbergError(503, statusText[503]!, {}, { cause: err });
    case 'crashed':
      return new GotenbergError(500, statusText[500]!, {}, { cause: err });
  }
}

/** Multer errors (size, count, unexpected field) in Gotenberg's words. */
function uploadError(err: unknown): GotenbergError {
  const code = (err as { code?: string }).code;
  if (code === 'LIMIT_FILE_SIZE') return new GotenbergError(413, statusText[413]!, {}, { cause: err });
  if (code === 'LIMIT_UNEXPECTED_FILE')
    return new GotenbergError(400, "Invalid form data: files must be sent in the 'files' field", {}, { cause: err });
  if (typeof code === 'string' && code.startsWith('LIMIT_'))
    return new GotenbergError(400, `Invalid form data: ${(err as Error).message}`, {}, { cause: err });
  if (/multipart|boundary/i.test(String((err as Error).message))) {
    return new GotenbergError(
      415,
      "Invalid 'Content-Type' header value: want 'multipart/form-data'",
      {},
      { cause: err },
    );
  }
  return new GotenbergError(
    400,
    "Malformed body: it does not match the 'Content-Type' header boundaries",
    {},
    { cause: err },
  );
}

/** `POST /forms/libreoffice/convert`, registered on the kit's app. */
export function gotenbergRoutes(app: express.Express, kit: ServiceKit, engine: OfficeEngine): void {
  const upload = uploadMiddleware(['files']);
  app.post(
    '/forms/libreoffice/convert',
    (req, res, next) => {
      res.setHeader('Gotenberg-Trace', traceOf(req, res));
      if (!req.is('multipart/form-data')) {
        return sendError(
          res,
          kit,
          new GotenbergError(415, "Invalid 'Content-Type' header value: want 'multipart/form-data'"),
        );
      }
      next();
    },
    workdirMiddleware('office'),
    (req, res, next) => upload(req, res, (err?: unknown) => (err ? sendError(res, kit, uploadError(err)) : next())),
    async (req, res) => {
      // Counted from here, as the kit's routes are: a request refused before its upload was read is not.
      const finish = trackRequest(kit, route, res.locals.requestId as string);
      let pageRange = '';
      try {
        const form = parseForm(req);
        pageRange = form.pageRange;
        const workdir = res.locals.workdir as string;
        // Judged by content before any work: each file must be an office document.
        const formats: OfficeFormat[] = [];
        for (const f of form.files) {
          const format = await detectOfficeFormat(f.path);
          if (!format)
            throw new GotenbergError(
              415,
              `Unsupported file '${f.name}': its content is not a document this service converts.`,
            );
          formats.push(format);
        }
        const abort = new AbortController();
        // The response's close, not the request's: the request's has already fired once the body
        // was read, so only this one tells that the client went away before the answer.
        res.on('close', () => {
          if (!res.writableFinished) abort.abort(new ToolError('timeout', 'The request was cancelled.'));
        });
        // Every document is converted and verified, and so is the merge, inside the queue slot and the time limit.
        const result = await kit.queue.run(async () => {
          const job: Job = { workdir, signal: abort.signal, deadline: Date.now() + kit.timeoutMs };
          const timer = setTimeout(() => abort.abort(new ToolError('timeout')), kit.timeoutMs);
          try {
            const made: Offered[] = [];
            for (const [i, f] of form.files.entries()) {
              const format = formats[i]!;
              const out = await convertDocument(engine, {
                path: f.path,
                name: f.name,
                format,
                ...(form.password ? { password: form.password } : {}),
                ...(form.pageRange ? { pageRange: form.pageRange } : {}),
                landscape: form.landscape,
                exportOptions: form.exportOptions,
                ...job,
              });
              const checks = await verifyCounted(
                {
                  tool: promiseOf(out.family),
                  inputs: format.kind ? [{ path: f.path, kind: format.kind }] : [],
                  options: {},
                  result: { path: out.path, kind: 'pdf' },
                  job,
                },
                route,
                kit,
              );
              made.push({ path: out.path, name: `${f.name}.pdf`, checks });
            }
            return await assemble(made, form.merge, job, kit);
          } finally {
            clearTimeout(timer);
          }
        }, abort.signal);
        const filename = outputFilename(req);
        const { size } = await stat(result.path);
        res
          .status(200)
          .type(result.type)
          .attachment(`${filename ?? randomUUID()}${result.ext}`)
          .setHeader('Content-Length', String(size))
          // Beyond Gotenberg's headers, as the kit's routes say it: what was checked before the answer.
          .setHeader(
            'X-Quire-Properties',
            propertiesHeader({ bytes: size, files: result.files, checks: result.checks }),
          );
        await pipeline(createReadStream(result.path), res);
        finish('ok');
      } catch (err) {
        const error = toGotenbergError(err, pageRange);
        finish(String(error.status));
        sendError(res, kit, error);
      }
    },
  );
}

/** A converted document that passed its checks. */
interface Offered {
  path: string;
  name: string;
  checks: string[];
}

/** What the route answers with, and what was checked of it. */
interface Answer {
  path: string;
  type: string;
  ext: string;
  files: number;
  checks: string[];
}

/** The one PDF, the documents merged in order (the merge verified in its turn), or a zip of them. */
async function assemble(made: Offered[], merge: boolean, job: Job, kit: ServiceKit): Promise<Answer> {
  const pdf = { type: 'application/pdf', ext: '.pdf', files: made.length };
  if (made.length === 1) return { ...pdf, path: made[0]!.path, checks: made[0]!.checks };
  if (merge) {
    const path = join(job.workdir, 'merged.pdf');
    await qpdf(['--empty', '--pages', ...made.map((o) => o.path), '--', path], job);
    // Held to the catalog's merge promise: every page of every document in order, text and pixels kept.
    const checks = await verifyCounted(
      {
        tool: findTool('pdf-merge')!,
        inputs: made.map((o) => ({ path: o.path, kind: 'pdf' as const })),
        options: {},
        result: { path, kind: 'pdf' },
        job,
      },
      route,
      kit,
    );
    return { ...pdf, path, checks };
  }
  const path = join(job.workdir, 'result.zip');
  await zipFiles(made, path);
  // Every document in it passed the same checks; the zip only gathers them.
  return { path, type: 'application/zip', ext: '.zip', files: made.length, checks: made[0]!.checks };
}

/** The trace id: the client's Gotenberg-Trace, else our request id (the two are the same id). */
function traceOf(req: Request, res: Response): string {
  return req.get('gotenberg-trace') || (res.locals.requestId as string | undefined) || randomUUID();
}

/** Gotenberg-Output-Filename, reduced to a base name as Gotenberg does. */
function outputFilename(req: Request): string | undefined {
  const given = req.get('gotenberg-output-filename');
  if (!given) return undefined;
  const base = basename(given.replace(/\\/g, '/')).replace(/[\r\n"]/g, '');
  return base || undefined;
}

function sendError(res: Response, kit: ServiceKit, err: GotenbergError): void {
  const code = err.status >= 500 ? 'error' : 'warn';
  if (err.status >= 500 || err.cause) {
    const cause = err.cause as { message?: string; cause?: unknown } | undefined;
    kit.log.log(code, err.message, { status: err.status, cause: cause?.message ?? String(cause ?? '') });
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(err.status).set(err.headers).type('text/plain; charset=UTF-8').send(err.message);
}

async function zipFiles(files: { path: string; name: string }[], out: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const used = new Set<string>();
  for (const f of files) {
    let name = f.name;
    for (let n = 2; used.has(name); n++) name = `${f.name.slice(0, -4)}-${n}.pdf`;
    used.add(name);
    zip.addFile(f.path, name);
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(out));
}
