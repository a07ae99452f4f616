import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorCodes, isFileKind, readErrorDetails, type ErrorCode, type Tool } from '@quire/catalog';
import { ToolError } from '@quire/base';
import { verdictTrailer, type Passed } from '@quire/http';
import type { Sink, StepOutput } from './service-client.ts';

/** A service's answer. */
export interface Answer {
  status: number;
  header(name: string): string | undefined;
  /** A trailer's value, once the body has been read. */
  trailer(name: string): string | undefined;
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
  // A result sent while it was checked is kept only once its verdict, after it, says it passed.
  let passed: Passed | undefined;
  const early = (answer.header('trailer') ?? '').toLowerCase().includes(verdictTrailer.toLowerCase());
  const body = early ? judged(answer, step.tool.service, (p) => (passed = p)) : answer.body;
  const saved = await step.sink(body, name);
  const properties = parseJson(answer.header('x-quire-properties'));
  return {
    saved,
    kind,
    name,
    properties: passed ? { ...properties, checks: passed.checks } : properties,
    timing: { ...parseTiming(answer.header('server-timing')), ...passed?.timing },
  };
}

/**
 * An answer's body passed on as it comes, failing at its end unless the verdict after it (see
 * verdictTrailer) says the result passed its checks: whatever it went into then keeps nothing of it.
 */
function judged(answer: Answer, service: string, onPassed: (passed: Passed) => void): Readable {
  const through = new Transform({
    transform: (chunk, _encoding, done) => done(null, chunk),
    flush: (done) => {
      const verdict = parseJson(answer.trailer(verdictTrailer.toLowerCase()));
      const checks = verdict.checks;
      if (Array.isArray(checks) && checks.every((c) => typeof c === 'string')) {
        onPassed({ checks, timing: readTiming(verdict.timing) });
        return done();
      }
      done(contractError(verdict, 200, service));
    },
  });
  pipeline(answer.body, through).catch(() => undefined);
  return through;
}

/** The durations a verdict gives, in ms; anything else in it is left out. */
function readTiming(value: unknown): Record<string, number> {
  const timing: Record<string, number> = {};
  if (value && typeof value === 'object')
    for (const [name, ms] of Object.entries(value))
      if (typeof ms === 'number' && Number.isFinite(ms)) timing[name] = ms;
  return timing;
}

/** A service's contract error passed on as it is; anything else from it is not the client's concern. */
async function errorFrom(answer: Answer, service: string): Promise<ToolError> {
  const body = await textOf(answer.body)
    .then(JSON.parse)
    .catch(() => undefined);
  const headers: Record<string, string> = {};
  const retryAfter = answer.header('retry-after');
  if (retryAfter) headers['Retry-After'] = retryAfter;
  return contractError(body, answer.status, service, headers);
}

/** A service's error body as the contract's error; anything else as what its status means. */
function contractError(body: unknown, status: number, service: string, headers: Record<string, string> = {}) {
  const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
  const code = error?.code;
  if (code && Object.hasOwn(errorCodes, code) && typeof error?.message === 'string') {
    const details = readErrorDetails(error.details);
    return new ToolError(code as ErrorCode, error.message, { headers, ...(details ? { details } : {}) });
  }
  return new ToolError(status === 503 ? 'not_available' : 'internal', undefined, {
    cause: new Error(`${service} answered ${status}${status === 200 ? ' without a passing verdict' : ''}`),
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
