import { openAsBlob, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { errorCodes, isFileKind, type ErrorCode, type FileKind, type ServiceName, type Tool } from '@quire/catalog';
import { ToolError, type Job } from '@quire/base';
import { convertWithGotenberg } from './gotenberg-client.ts';

export interface StepInput {
  path: string;
  name: string;
  /** What the file is, judged by content (the upload's check, or the step that made it). */
  kind: FileKind;
}

export interface StepOutput {
  path: string;
  kind: FileKind;
  name: string;
  properties: Record<string, unknown>;
}

export interface StepRequest {
  tool: Tool;
  inputs: StepInput[];
  /** Form fields to pass on as given: options, password, url. */
  fields: Record<string, string>;
  requestId: string;
  /** The request's job: results are written in its work folder, and the call ends when its signal aborts. */
  job: Job;
}

let outputs = 0;

/**
 * Calls the service that owns a tool over HTTP, by the contract's `/tools/:id`, and keeps its result
 * in the work folder. A service may run as several instances: calls start at each in turn, and move
 * on to the next one only when the connection is refused, since such a request never reached a
 * service. An office instance that is an official Gotenberg is called through its own route.
 */
export class ServiceClient {
  /** Where each service's next call starts. */
  private readonly turn = new Map<ServiceName, number>();
  /** Whether each office instance is an official Gotenberg, once it has said so. */
  private readonly gotenberg = new Map<string, boolean>();

  constructor(
    private readonly urls: Partial<Record<ServiceName, string[]>>,
    /** Longest one call may take: the service's own job limit and a margin. */
    readonly timeoutMs: number,
  ) {}

  /** The service's instances, starting with the one whose turn it is. */
  private instances(service: ServiceName): string[] {
    const urls = this.urls[service] ?? [];
    const start = (this.turn.get(service) ?? 0) % Math.max(urls.length, 1);
    this.turn.set(service, start + 1);
    return [...urls.slice(start), ...urls.slice(0, start)];
  }

  async run(step: StepRequest): Promise<StepOutput> {
    const bases = this.instances(step.tool.service);
    if (bases.length === 0)
      throw new ToolError('not_available', `The ${step.tool.name} tool is not available on this server yet.`);
    for (let i = 0; ; i++) {
      try {
        return await this.runOn(bases[i]!, step);
      } catch (err) {
        if (refused(err) && i + 1 < bases.length) continue;
        throw failure(err, step.job.signal);
      }
    }
  }

  private async runOn(base: string, step: StepRequest): Promise<StepOutput> {
    const path = join(step.job.workdir, `out-${++outputs}`);
    if (step.tool.service === 'office' && (await this.isGotenberg(base, step.job.signal))) {
      return convertWithGotenberg(base, step, path);
    }
    const form = new FormData();
    for (const input of step.inputs) form.append('file', await openAsBlob(input.path), input.name);
    for (const [k, v] of Object.entries(step.fields)) form.append(k, v);
    const res = await fetch(`${base}/tools/${step.tool.id}`, {
      method: 'POST',
      body: form,
      headers: { 'X-Request-Id': step.requestId },
      signal: step.job.signal,
    });
    if (!res.ok) throw await errorFrom(res, step.tool.service);
    const kind = res.headers.get('x-quire-output-kind') ?? '';
    if (!isFileKind(kind) || !res.body)
      throw new ToolError('internal', undefined, { cause: new Error(`bad answer from ${step.tool.service}`) });
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(path));
    return {
      path,
      kind,
      name: decodeURIComponent(res.headers.get('x-quire-output-name') ?? `result.${kind}`),
      properties: parseJson(res.headers.get('x-quire-properties')),
    };
  }

  /**
   * Whether an office instance is an official Gotenberg rather than Quire's office service, which
   * answers Gotenberg's `/version` with `-quire` in it. Asked once per instance; one that does not
   * answer is taken for ours until it does (the call that follows fails as any call to it would).
   */
  private async isGotenberg(base: string, signal: AbortSignal): Promise<boolean> {
    const known = this.gotenberg.get(base);
    if (known !== undefined) return known;
    try {
      const res = await fetch(`${base}/version`, { signal: AbortSignal.any([signal, AbortSignal.timeout(5000)]) });
      if (!res.ok) return false;
      const official = !(await res.text()).includes('-quire');
      this.gotenberg.set(base, official);
      return official;
    } catch {
      return false;
    }
  }

  /** Which services answer their health check: up while one of its instances does. */
  async health(): Promise<Record<string, 'up' | 'down'>> {
    const answers = async (url: string) => {
      try {
        return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(3000) })).ok;
      } catch {
        return false;
      }
    };
    const entries = await Promise.all(
      Object.entries(this.urls).map(async ([name, urls]) => {
        const up = (await Promise.all(urls.map(answers))).some(Boolean);
        return [name, up ? 'up' : 'down'] as const;
      }),
    );
    return Object.fromEntries(entries);
  }
}

/**
 * A failed call as the contract's error: the job's own reason when it was stopped (time up, client
 * gone), not_available when the service could not be reached or cut the answer off.
 */
function failure(err: unknown, signal: AbortSignal): ToolError {
  if (err instanceof ToolError) return err;
  if (signal.aborted) {
    return signal.reason instanceof ToolError ? signal.reason : new ToolError('timeout', undefined, { cause: err });
  }
  // fetch says a connection refused, reset or not resolved with a TypeError.
  if (err instanceof TypeError) return new ToolError('not_available', undefined, { cause: err });
  return new ToolError('internal', undefined, { cause: err });
}

/** A refused connection (fetch names it in its error's causes): the request was never sent. */
function refused(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === 'ECONNREFUSED') return true;
  }
  return false;
}

/** A service's contract error passed on as it is; anything else from it is not the client's concern. */
async function errorFrom(res: Response, service: string): Promise<ToolError> {
  const body = (await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
  const code = body?.error?.code;
  const headers: Record<string, string> = {};
  const retryAfter = res.headers.get('retry-after');
  if (retryAfter) headers['Retry-After'] = retryAfter;
  if (code && Object.hasOwn(errorCodes, code) && typeof body?.error?.message === 'string') {
    return new ToolError(code as ErrorCode, body.error.message, { headers });
  }
  return new ToolError(res.status === 503 ? 'not_available' : 'internal', undefined, {
    cause: new Error(`${service} answered ${res.status}`),
  });
}

function parseJson(text: string | null): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
