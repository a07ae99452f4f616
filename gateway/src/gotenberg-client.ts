import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { Chromiumly, LibreOffice } from 'chromiumly';
import { fileKinds } from '@quire/catalog';
import { ToolError, pageCount, sniffKind } from '@quire/service-kit';

/**
 * The gateway's client for the office tools: Gotenberg 8's LibreOffice route through chromiumly, so
 * the office service (OFFICE_URL) can be ours or the official gotenberg/gotenberg:8 image. Gotenberg
 * answers in HTTP statuses and plain-text messages; this turns them into the contract's codes.
 */

export interface GotenbergResult {
  /** The PDF, written beside the input in the request's work directory. */
  path: string;
  properties: Record<string, unknown>;
}

/** Extensions we send under (chromiumly refuses names it does not list; it has no ppsx). */
// prettier-ignore
const sendable = new Set([
  'doc', 'docx', 'docm', 'dot', 'dotx', 'odt', 'ott', 'fodt', 'rtf', 'sxw',
  'xls', 'xlsx', 'xlsm', 'xlt', 'xltx', 'ods', 'ots', 'fods', 'csv', 'sxc',
  'ppt', 'pptx', 'pptm', 'pps', 'pot', 'potx', 'odp', 'otp', 'fodp', 'sxi',
]);
type Ext = Parameters<typeof LibreOffice.convert>[0]['files'][number] extends infer F
  ? F extends { ext: infer E }
    ? E
    : never
  : never;

let outputs = 0;

/**
 * Converts one office document with Gotenberg's LibreOffice route. `fields` are the form fields the
 * gateway passes on: `password`, and where a tool has them `landscape` (`true`) and
 * `nativePageRanges` (`from-to`). The request id travels as Gotenberg-Trace. When `signal` aborts,
 * the call is abandoned with the signal's reason (chromiumly cannot cancel a request; the service
 * stops the work at its own time limit).
 */
export async function convertWithGotenberg(
  baseUrl: string,
  inputPath: string,
  inputName: string,
  fields: Record<string, string>,
  requestId: string,
  signal: AbortSignal,
): Promise<GotenbergResult> {
  if (signal.aborted) throw abortReason(signal);
  useEndpoint(baseUrl);
  const ext = await extensionFor(inputPath, inputName);
  const password = fields.password || undefined;
  const range = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(fields.nativePageRanges ?? '');
  const call = LibreOffice.convert({
    files: [{ data: createReadStream(inputPath), ext: ext as Ext }],
    properties: {
      ...(password ? { password } : {}),
      ...(fields.landscape === 'true' ? { landscape: true } : {}),
      ...(range ? { nativePageRanges: { from: Number(range[1]), to: Number(range[2]) } } : {}),
    },
    trace: requestId,
  });
  let pdf: Buffer;
  try {
    pdf = await untilAborted(call, signal);
  } catch (err) {
    throw toToolError(err, Boolean(password), signal);
  }
  if (!pdf.subarray(0, 1024).includes('%PDF-')) {
    throw new ToolError('internal', undefined, { cause: new Error('the office service answered 200 without a PDF') });
  }
  const path = join(dirname(inputPath), `gotenberg-${++outputs}.pdf`);
  await writeFile(path, pdf);
  const pages = await pageCount(path, { workdir: dirname(inputPath), signal, deadline: Date.now() + 30_000 }).catch(
    () => undefined,
  );
  return { path, properties: { engine: 'libreoffice', bytes: pdf.length, ...(pages ? { pages } : {}) } };
}

/**
 * A Gotenberg answer as the contract's error. `passwordSent` tells the two password cases apart,
 * which works with the official image too: its one message for both says a password "may be
 * required, or, if one has been given, it is invalid".
 */
export function gotenbergError(status: number, body: string, passwordSent: boolean, cause?: unknown): ToolError {
  const opts = { cause: cause ?? new Error(`office service answered ${status}: ${body.slice(0, 500)}`) };
  switch (status) {
    case 400:
      if (/nativePageRanges|page ranges/i.test(body)) {
        return new ToolError('invalid_option', 'The page ranges do not fit this document.', opts);
      }
      if (/password/i.test(body)) {
        return passwordSent
          ? new ToolError('wrong_password', undefined, opts)
          : new ToolError('password_required', 'This document is protected. Please enter its password.', opts);
      }
      if (/^Invalid form data/i.test(body)) return new ToolError('internal', undefined, opts);
      return new ToolError('damaged_input', 'The document is damaged and could not be read.', opts);
    case 413:
      return new ToolError('file_too_large', undefined, opts);
    case 415:
      return new ToolError('unsupported_type', undefined, opts);
    case 429:
      return new ToolError('busy', undefined, { ...opts, headers: { 'Retry-After': '5' } });
    case 503:
    case 504:
      // Gotenberg's 503 is its own time limit (context deadline exceeded).
      return new ToolError('timeout', undefined, opts);
    case 404:
    case 502:
      return new ToolError('not_available', undefined, opts);
    default:
      return new ToolError('internal', undefined, opts);
  }
}

function toToolError(err: unknown, passwordSent: boolean, signal: AbortSignal): ToolError {
  if (err instanceof ToolError) return err;
  if (signal.aborted) return abortReason(signal);
  const message = err instanceof Error ? err.message : String(err);
  // chromiumly: "Gotenberg API Error:\nEndpoint: …\nStatus: 400 Bad Request\nTrace: …\nBody: …"
  const status = /^Status: (\d{3})/m.exec(message);
  if (status)
    return gotenbergError(Number(status[1]), /^Body: ([\s\S]*)$/m.exec(message)?.[1] ?? '', passwordSent, err);
  if (/is not supported$/.test(message)) return new ToolError('unsupported_type', undefined, { cause: err });
  // fetch failed (refused, reset, DNS) or no endpoint configured: the service is not there.
  return new ToolError('not_available', undefined, { cause: err });
}

/** chromiumly keeps one endpoint for the process: set it when the gateway's setting differs. */
function useEndpoint(baseUrl: string): void {
  const endpoint = baseUrl.replace(/\/+$/, '');
  let current: string | undefined;
  try {
    current = Chromiumly.getGotenbergEndpoint();
  } catch {
    current = undefined;
  }
  if (current !== endpoint) Chromiumly.configure({ endpoint });
}

/** The extension to send the file under: its own when chromiumly takes it, else its content's. */
async function extensionFor(inputPath: string, inputName: string): Promise<string> {
  const own = extname(inputName).slice(1).toLowerCase();
  if (own === 'ppsx' || own === 'ppsm') return 'pptx';
  if (sendable.has(own)) return own;
  const kind = await sniffKind(inputPath);
  const ext: string | undefined = kind ? fileKinds[kind].ext : undefined;
  if (ext && sendable.has(ext)) return ext;
  if (ext === 'ppsx') return 'pptx';
  throw new ToolError('unsupported_type');
}

function untilAborted<T>(call: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    call.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function abortReason(signal: AbortSignal): ToolError {
  const reason: unknown = signal.reason;
  return reason instanceof ToolError ? reason : new ToolError('timeout', undefined, { cause: reason });
}
