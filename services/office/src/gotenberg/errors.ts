import type { Response } from 'express';
import { ToolError } from '@quire/base';
import type { ServiceKit } from '@quire/service-kit';
import { EngineError } from '../engine/engine.ts';

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

/** A bare status in Gotenberg's words, keeping what caused it for the log. */
const plain = (status: number, cause: unknown, headers: Record<string, string> = {}) =>
  new GotenbergError(status, statusText[status]!, headers, { cause });

/** Gotenberg's words for page ranges LibreOffice cannot apply to a document. */
export function pageRangesError(pageRange: string, file: string): string {
  return `LibreOffice could not apply the page ranges '${pageRange}' to the document '${file}'. Check the 'nativePageRanges' form field; valid values look like '1-4', '2' or '1,3,5-7'.`;
}

/** What the route was doing when it failed: the page ranges asked, the document being converted, whether a password was given. */
export interface Failing {
  pageRange: string;
  file: string;
  password: boolean;
}

/** A failure in Gotenberg's words: what its own LibreOffice route (8.36) answers in the same case. */
export function toGotenbergError(err: unknown, at: Failing): GotenbergError {
  if (err instanceof GotenbergError) return err;
  if (err instanceof ToolError) {
    if (err.code === 'busy') return plain(429, err, err.headers);
    if (err.code === 'timeout') return plain(503, err);
    if (err.code === 'file_too_large') return plain(413, err);
    if (err.code === 'too_many_files' || err.code === 'invalid_option')
      return new GotenbergError(400, `Invalid form data: ${err.message}`, {}, { cause: err });
    // Anything else, a result that failed its verification included, is Gotenberg's bare 500.
    return plain(500, err);
  }
  if (!(err instanceof EngineError)) return plain(500, err);
  const bad = (message: string) => new GotenbergError(400, message, {}, { cause: err });
  const file = at.file;
  switch (err.kind) {
    case 'password_required':
      return bad(`The document '${file}' is password-protected. Provide its password in the 'password' form field.`);
    case 'wrong_password':
      return bad(`The password for the document '${file}' is incorrect. Check the 'password' form field.`);
    case 'load_failed':
      return bad(
        `LibreOffice could not read the document '${file}'. Ensure the file is not corrupted and that its extension matches its actual format.`,
      );
    case 'export_failed':
      return bad(
        at.pageRange
          ? pageRangesError(at.pageRange, file)
          : `LibreOffice read the document '${file}' but could not convert it to PDF. The document may be corrupted or rely on an unsupported feature.`,
      );
    case 'wrong_family':
      return new GotenbergError(415, 'Unsupported file: not a document LibreOffice converts.', {}, { cause: err });
    case 'timeout':
    case 'unavailable':
      return plain(503, err);
    case 'crashed':
      return plain(500, err);
  }
}

/** Multer errors (size, count, unexpected field) in Gotenberg's words. */
export function uploadError(err: unknown): GotenbergError {
  const code = (err as { code?: string }).code;
  if (code === 'LIMIT_FILE_SIZE') return plain(413, err);
  if (code === 'LIMIT_UNEXPECTED_FILE')
    return new GotenbergError(
      400,
      `Invalid form data: form file '${(err as { field?: string }).field ?? ''}' is not a field of this route; documents go in 'files', attachments in 'embeds'`,
      {},
      { cause: err },
    );
  if (typeof code === 'string' && code.startsWith('LIMIT_'))
    return new GotenbergError(400, `Invalid form data: ${(err as Error).message}`, {}, { cause: err });
  if (/multipart|boundary/i.test(String((err as Error).message))) return notMultipart(err);
  return new GotenbergError(
    400,
    "Malformed body: it does not match the 'Content-Type' header boundaries",
    {},
    { cause: err },
  );
}

export function notMultipart(cause?: unknown): GotenbergError {
  return new GotenbergError(415, "Invalid 'Content-Type' header value: want 'multipart/form-data'", {}, { cause });
}

/** Answers in plain text; a failure after the answer began cuts the connection. */
export function sendError(res: Response, kit: ServiceKit, err: GotenbergError): void {
  if (err.status >= 500 || err.cause) {
    const cause = err.cause as { message?: string } | undefined;
    kit.log.log(err.status >= 500 ? 'error' : 'warn', err.message, {
      status: err.status,
      cause: cause?.message ?? String(cause ?? ''),
    });
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(err.status).set(err.headers).type('text/plain; charset=UTF-8').send(err.message);
}
