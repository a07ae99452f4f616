import type { Readable } from 'node:stream';
import { errorCodes, isFileKind, readErrorDetails, type ErrorCode, type Tool } from '@quire/catalog';
import { ToolError } from '@quire/base';
import type { Sink, StepOutput } from './service-client.ts';

/** A service's answer, whichever client got it (fetch's or node:http's). */
export interface Answer {
  status: number;
  header(name: string): string | undefined;
  body: Readable;
}

/** A service's answer by the contract: the result into the step's sink, or the service's error. */
export async function take(answer: Answer, step: { tool: Tool; sink: Sink }): Promise<StepOutput> {
  if (answer.status < 200 || answer.status >= 300) throw await errorFrom(answer, step.tool.service);
  const kind = answer.header('x-quire-output-kind') ?? '';
  if (!isFileKind(kind)) {
    answer.body.destroy();
    throw new ToolError('internal', undefined, { cause: new Error(`bad answer from ${step.tool.service}`) });
  }
  const name = decodeURIComponent(answer.header('x-quire-output-name') ?? `result.${kind}`);
  const saved = await step.sink(answer.body, name);
  return {
    saved,
    kind,
    name,
    properties: parseJson(answer.header('x-quire-properties')),
    timing: parseTiming(answer.header('server-timing')),
  };
}

/** A service's contract error passed on as it is; anything else from it is not the client's concern. */
async function errorFrom(answer: Answer, service: string): Promise<ToolError> {
  const body = (await textOf(answer.body)
    .then(JSON.parse)
    .catch(() => undefined)) as { error?: { code?: string; message?: string; details?: unknown } } | undefined;
  const code = body?.error?.code;
  const headers: Record<string, string> = {};
  const retryAfter = answer.header('retry-after');
  if (retryAfter) headers['Retry-After'] = retryAfter;
  if (code && Object.hasOwn(errorCodes, code) && typeof body?.error?.message === 'string') {
    const details = readErrorDetails(body.error.details);
    return new ToolError(code as ErrorCode, body.error.message, { headers, ...(details ? { details } : {}) });
  }
  return new ToolError(answer.status === 503 ? 'not_available' : 'internal', undefined, {
    cause: new Error(`${service} answered ${answer.status}`),
  });
}

/** An error answer's text; a body past 64 KB is no error of the contract's. */
async function textOf(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > 64 * 1024) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A Server-Timing header's durations by name (`tool;dur=12.5, verify;dur=3` → { tool: 12.5, verify: 3 }). */
export function parseTiming(header: string | undefined): Record<string, number> {
  const timing: Record<string, number> = {};
  for (const m of (header ?? '').matchAll(/([\w-]+);dur=([\d.]+)/g)) timing[m[1]!] = Number(m[2]);
  return timing;
}

function parseJson(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
