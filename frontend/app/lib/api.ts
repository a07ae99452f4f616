import { readErrorDetails, type ErrorCode, type ErrorDetails } from '@quire/catalog/errors';
import { errorMessages } from 'virtual:quire/error-messages';
import { authHeaders } from './auth.ts';

/** What a tool or workflow call came to, as the page shows it. */
export type RunOutcome =
  | { ok: true; download: string; checks: string[]; expiresAt?: string; properties?: Record<string, unknown> }
  /** The server answered with a contract error (`message` is the server's, in English; `details` what it is about). */
  | { ok: false; reason: 'error'; code: ErrorCode; message: string; details?: ErrorDetails }
  /** An answer without a download: shown as "Conversion failed". */
  | { ok: false; reason: 'no-download' }
  /** The request itself failed: network, abort. */
  | { ok: false; reason: 'network' };

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorMessages, value);
}

/** What an answer to a tool call says: its download, or the contract error (a bare status said as one). */
export function outcomeOf(status: number, text: string): RunOutcome {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const b = body as {
    download?: unknown;
    expiresAt?: unknown;
    properties?: { checks?: unknown } & Record<string, unknown>;
    error?: { code?: unknown; message?: unknown; details?: unknown };
  };
  if (status >= 200 && status < 300 && typeof b?.download === 'string' && b.download) {
    const checks = Array.isArray(b.properties?.checks) ? b.properties.checks.filter((c) => typeof c === 'string') : [];
    const expiresAt =
      typeof b.expiresAt === 'string' && !Number.isNaN(Date.parse(b.expiresAt)) ? b.expiresAt : undefined;
    const properties = typeof b.properties === 'object' && b.properties ? { properties: b.properties } : {};
    return { ok: true, download: b.download, checks, ...(expiresAt ? { expiresAt } : {}), ...properties };
  }
  if (b?.error && isErrorCode(b.error.code)) {
    const details = readErrorDetails(b.error.details);
    return {
      ok: false,
      reason: 'error',
      code: b.error.code,
      message: String(b.error.message ?? ''),
      ...(details ? { details } : {}),
    };
  }
  // An answer from something in front of the gateway (an HTML error page) still says what happened.
  if (status === 413) return { ok: false, reason: 'error', code: 'file_too_large', message: '' };
  if (status === 502 || status === 503) return { ok: false, reason: 'error', code: 'not_available', message: '' };
  if (status === 504) return { ok: false, reason: 'error', code: 'timeout', message: '' };
  return { ok: false, reason: 'no-download' };
}

/**
 * Posts a form with upload progress (fetch cannot report it). `onProgress` gets the percentage of the
 * body sent. A signed-in user's call carries their ID token, so that the run joins their history.
 */
export async function postForm(
  url: string,
  form: FormData,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const answer = await sendForm(url, form, onProgress, signal);
  return answer ? outcomeOf(answer.status, answer.text) : { ok: false, reason: 'network' };
}

/** The answer to a form posted with upload progress (see postForm); undefined when the request failed. */
export async function sendForm(
  url: string,
  form: FormData,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<{ status: number; text: string } | undefined> {
  const headers = await authHeaders().catch((): Record<string, string> => ({}));
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => resolve(undefined);
    xhr.onabort = () => resolve(undefined);
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** Where a result is downloaded from. */
export function downloadUrl(name: string): string {
  return `/uploads/${encodeURIComponent(name)}`;
}

/** The readable part of a result's name: `<32 hex>-report.pdf` → `report.pdf`. */
export function readableName(name: string): string {
  return name.replace(/^[0-9a-f]{32}-/, '');
}

export async function postJson(url: string, body: unknown): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.ok;
  } catch {
    return false;
  }
}
