/** The public error codes of the HTTP contract, with their status and the message a person sees by default. */
export const errorCodes = {
  unknown_tool: { status: 404, message: 'This tool does not exist.' },
  missing_file: { status: 400, message: 'Please choose a file.' },
  invalid_url: { status: 400, message: 'Please enter a valid URL.' },
  too_few_files: { status: 400, message: 'Please choose more files for this tool.' },
  too_many_files: { status: 400, message: 'This tool takes fewer files. Please remove some and try again.' },
  empty_file: { status: 400, message: 'The file is empty (0 bytes). Please choose the file again.' },
  unsupported_type: { status: 415, message: 'This type of file is not supported by this tool.' },
  file_too_large: { status: 413, message: 'The file is too large. Please choose a smaller file.' },
  invalid_option: { status: 400, message: 'An option has a value that is not allowed.' },
  regex_too_slow: {
    status: 400,
    message: 'The regular expression takes too long to search this document. Please make it simpler.',
  },
  invalid_workflow: { status: 400, message: 'These steps cannot be chained in this order.' },
  password_required: { status: 400, message: 'This PDF is protected. Please enter its password.' },
  wrong_password: { status: 400, message: 'The password is not correct. Please try again.' },
  wrong_certificate_password: {
    status: 400,
    message: 'The certificate password is not correct. Please try again.',
  },
  invalid_certificate: {
    status: 400,
    message: 'This certificate cannot be used to sign: it must be a PKCS#12 file (.p12 or .pfx) with its private key.',
  },
  damaged_input: { status: 422, message: 'The file is damaged and could not be read or repaired.' },
  cannot_convert: { status: 422, message: 'This file cannot be converted without losing part of it.' },
  url_blocked: { status: 403, message: 'This address cannot be opened: it points to a private or forbidden place.' },
  url_unreachable: { status: 502, message: 'The page at this address could not be loaded.' },
  busy: { status: 429, message: 'We are busy right now. Please try again in a moment.' },
  timeout: { status: 504, message: 'Processing took too long and was stopped. Please try a smaller file.' },
  rate_limited: { status: 429, message: 'Too many requests. Please wait a moment and try again.' },
  not_available: { status: 503, message: 'This tool is not available right now. Please try again later.' },
  invalid_token: { status: 401, message: 'Your session has expired. Please sign in again.' },
  not_found: { status: 404, message: 'Not found.' },
  job_not_finished: { status: 409, message: 'This job has not finished yet. Please ask again in a moment.' },
  job_cancelled: { status: 410, message: 'This job was cancelled: it has no result.' },
  internal: { status: 500, message: 'Something went wrong on our side. Please try again.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCodes;

/**
 * What an error is about, where the server knows it, so that a client can say it in its own words and
 * language: the file at fault (as the client named it), what that file is, the tool, the option, and the
 * document's page count when a page number was out of range.
 */
export interface ErrorDetails {
  file?: string;
  /** The kind the file's content shows (a catalog file kind), when it is a known one. */
  kind?: string;
  tool?: string;
  option?: string;
  pages?: number;
  /** In a workflow, the failing step (1 for the first). */
  step?: number;
}

const detailTypes = {
  file: 'string',
  kind: 'string',
  tool: 'string',
  option: 'string',
  pages: 'number',
  step: 'number',
} as const satisfies Record<keyof ErrorDetails, 'string' | 'number'>;

/** The details of an error body read from elsewhere: only the known fields, of their types. */
export function readErrorDetails(value: unknown): ErrorDetails | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const details: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(detailTypes)) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === type && (type === 'string' ? (v as string).length <= 300 : Number.isFinite(v))) details[key] = v;
  }
  return Object.keys(details).length > 0 ? (details as ErrorDetails) : undefined;
}
