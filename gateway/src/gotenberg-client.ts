import { createWriteStream, openAsBlob } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileKinds } from '@quire/catalog';
import { ToolError, resultName } from '@quire/base';
import { pageCount } from '@quire/pdf';
import type { StepOutput, StepRequest } from './service-client.ts';

/**
 * The adapter for an official Gotenberg 8 behind OFFICE_URL: an office tool's step sent to Gotenberg's
 * LibreOffice route instead of the contract's `/tools/:id`. Plain fetch, so that the call is cancelled
 * with the job and the PDF streams to disk, where it is checked before the step's sink takes it.
 * Gotenberg answers in HTTP statuses and plain-text messages, and says nothing of the result; this
 * turns its errors into the contract's codes and counts the pages it made.
 */
export async function convertWithGotenberg(base: string, step: StepRequest, path: string): Promise<StepOutput> {
  const input = step.inputs[0]!;
  const password = step.fields.password;
  const form = new FormData();
  // Gotenberg picks files by their names' extensions: the one of what the file is, judged by content.
  form.append('files', await openAsBlob(input.path), `document.${fileKinds[input.kind].ext}`);
  if (password) form.append('password', password);
  const res = await fetch(`${base}/forms/libreoffice/convert`, {
    method: 'POST',
    body: form,
    headers: { 'Gotenberg-Trace': step.requestId },
    signal: step.job.signal,
  });
  if (!res.ok || !res.body) {
    const body = await res.text().catch(() => '');
    throw gotenbergError(res.status, body, Boolean(password), res.headers.get('retry-after'));
  }
  await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(path));
  if (!(await startsAsPdf(path))) {
    throw new ToolError('internal', undefined, { cause: new Error('Gotenberg answered 200 without a PDF') });
  }
  const pages = await pageCount(path, step.job).catch(() => undefined);
  const { size } = await stat(path);
  const name = resultName(input.name, 'pdf');
  return {
    saved: await step.sink(path, name),
    kind: 'pdf',
    name,
    properties: { bytes: size, ...(pages ? { pages } : {}) },
    timing: {},
  };
}

/**
 * A Gotenberg answer as the contract's error. `passwordSent` tells the two password cases apart,
 * which Gotenberg's one message for both ("a password may be required, or, if one has been given,
 * it is invalid") does not.
 */
export function gotenbergError(
  status: number,
  body: string,
  passwordSent: boolean,
  retryAfter: string | null = null,
): ToolError {
  const opts = { cause: new Error(`Gotenberg answered ${status}: ${body.slice(0, 500)}`) };
  switch (status) {
    case 400:
      if (/password/i.test(body)) {
        return passwordSent
          ? new ToolError('wrong_password', undefined, opts)
          : new ToolError('password_required', 'This document is protected. Please enter its password.', opts);
      }
      // A form Gotenberg cannot read is ours to fix, not the visitor's.
      if (/^Invalid form data/i.test(body)) return new ToolError('internal', undefined, opts);
      return new ToolError('damaged_input', 'The document is damaged and could not be read.', opts);
    case 413:
      return new ToolError('file_too_large', undefined, opts);
    case 415:
      return new ToolError('unsupported_type', undefined, opts);
    case 429:
      return new ToolError('busy', undefined, { ...opts, headers: { 'Retry-After': retryAfter || '5' } });
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

/** Whether a file has a PDF header in its first kilobyte, where PDF readers look for it. */
async function startsAsPdf(path: string): Promise<boolean> {
  const fh = await open(path);
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).includes('%PDF-');
  } finally {
    await fh.close();
  }
}
