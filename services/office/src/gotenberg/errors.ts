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

/** A failure in Gotenberg's words: what its own LibreOffice route answers in the same case. */
export function toGotenbergError(err: unknown, pageRange: string): GotenbergError {
  if (err instanceof GotenbergError) return err;
  if (err instanceof ToolError) {
    if (err.code === 'busy') return plain(429, err, err.headers);
    if (err.code === 'timeout') return plain(503, err);
    if (err.code === 'file_too_large') return plain(413, err);
    if (err.code === 'too_many_files' || err.code === 'invalid_option')
      return new GotenbergError(400, `Invalid form data: ${err.message}`, {}, { cause: err });
    return plain(500, err);
  }
  if (!(err instanceof EngineError)) return plain(500, err);
  const failed = 'LibreOffice failed to process a document';
  const bad = (message: string) => new GotenbergError(400, `${failed}: ${message}`, {}, { cause: err });
  switch (err.kind) {
    case 'password_required':
      return bad('a password is required to open it.');
    case 'wrong_password':
      return bad('the password given is invalid.');
    case 'load_failed':
      return bad('it is damaged or could not be read.');
    case 'export_failed':
      return bad(
        pageRange
          ? `the page ranges '${pageRange}' (nativePageRanges) do not fit it.`
          : 'it could not be exported to PDF.',
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
    return new GotenbergError(400, "Invalid form data: files must be sent in the 'files' field", {}, { cause: err });
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
