import { openAsBlob, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { errorCodes, isFileKind, type ErrorCode, type FileKind, type ServiceName, type Tool } from '@quire/catalog';
import { ToolError, resultName } from '@quire/service-kit';
import { convertWithGotenberg } from './gotenberg-client.ts';

export interface StepInput {
  path: string;
  name: string;
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
  workdir: string;
  requestId: string;
  signal: AbortSignal;
}

let outputs = 0;

/**
 * Calls the service that owns a tool over HTTP and keeps its result in the work directory. A service may
 * run as several instances: calls start at each in turn, and move on to the next one only when the
 * connection is refused, since such a request never reached a service.
 */
export class ServiceClient {
  /** Where each service's next call starts. */
  private readonly turn = new Map<ServiceName, number>();

  constructor(
    private readonly urls: Partial<Record<ServiceName, string[]>>,
    private readonly timeoutMs: number,
  ) {}

  isDeployed(service: ServiceName): boolean {
    return Boolean(this.urls[service]?.length);
  }

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
    const signal = AbortSignal.any([step.signal, AbortSignal.timeout(this.timeoutMs)]);
    if (step.tool.service === 'office') {
      // Office documents go over Gotenberg's API, so OFFICE_URL may name our service or Gotenberg itself.
      const input = step.inputs[0]!;
      const r = await convertWithGotenberg(bases[0]!, input.path, input.name, step.fields, step.requestId, signal);
      return { path: r.path, kind: 'pdf', name: resultName(input.name, 'pdf'), properties: r.properties };
    }
    const form = new FormData();
    for (const input of step.inputs) form.append('file', await openAsBlob(input.path), input.name);
    for (const [k, v] of Object.entries(step.fields)) form.append(k, v);
    const res = await post(bases, `/tools/${step.tool.id}`, form, step.requestId, signal);
    if (!res.ok) throw await errorFrom(res, step.tool.service);
    const kind = res.headers.get('x-quire-output-kind') ?? '';
    if (!isFileKind(kind) || !res.body)
      throw new ToolError('internal', undefined, { cause: new Error(`bad answer from ${step.tool.service}`) });
    const path = join(step.workdir, `out-${++outputs}`);
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(path));
    return {
      path,
      kind,
      name: decodeURIComponent(res.headers.get('x-quire-output-name') ?? `result.${kind}`),
      properties: parseJson(res.headers.get('x-quire-properties')),
    };
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

/** Posts to the first instance that takes the connection; any other failure is the answer. */
async function post(
  bases: string[],
  path: string,
  form: FormData,
  requestId: string,
  signal: AbortSignal,
): Promise<Response> {
  for (let i = 0; ; i++) {
    try {
      return await fetch(`${bases[i]}${path}`, {
        method: 'POST',
        body: form,
        headers: { 'X-Request-Id': requestId },
        signal,
      });
    } catch (err) {
      if (refused(err) && i + 1 < bases.length) continue;
      if ((err as Error).name === 'TimeoutError') throw new ToolError('timeout', undefined, { cause: err });
      throw new ToolError('not_available', undefined, { cause: err });
    }
  }
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
