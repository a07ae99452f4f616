import { errorCodes, type ErrorCode, type ErrorDetails } from '@quire/catalog';

/**
 * The one error type: a contract code and a message a person can act on, kept apart from the cause,
 * which is logged and never sent.
 */
export class ToolError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly details?: ErrorDetails;

  constructor(
    code: ErrorCode,
    message: string = errorCodes[code].message,
    options: { cause?: unknown; headers?: Record<string, string>; details?: ErrorDetails } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ToolError';
    this.code = code;
    this.status = errorCodes[code].status;
    this.headers = options.headers ?? {};
    if (options.details) this.details = options.details;
  }

  toBody(): { error: { code: ErrorCode; message: string; details?: ErrorDetails } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export function fail(code: ErrorCode, message?: string, cause?: unknown, details?: ErrorDetails): never {
  throw new ToolError(code, message, { cause, ...(details ? { details } : {}) });
}

/** Any thrown value as a ToolError; what is not one already is `internal`. */
export function toToolError(err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  const e = err as { code?: string; type?: string; status?: number };
  if (e?.code === 'LIMIT_FILE_SIZE' || e?.type === 'entity.too.large')
    return new ToolError('file_too_large', undefined, { cause: err });
  if (e?.code === 'LIMIT_FILE_COUNT') return new ToolError('too_many_files', undefined, { cause: err });
  if (e?.code?.startsWith?.('LIMIT_') || e?.type === 'entity.parse.failed' || e?.status === 400)
    return new ToolError('invalid_option', 'The request could not be read. Please try again.', { cause: err });
  return new ToolError('internal', undefined, { cause: err });
}
