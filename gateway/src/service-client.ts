import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FileKind, ServiceName, Tool } from '@quire/catalog';
import { timeLeft, ToolError, type Job } from '@quire/base';
import { connect } from './connect.ts';
import { convertWithGotenberg } from './gotenberg-client.ts';
import type { RelayedForm } from './relay.ts';
import { take } from './service-answer.ts';

export interface StepInput {
  path: string;
  name: string;
  /** What the file is, judged by content (the upload's check, or the step that made it). */
  kind: FileKind;
}

/**
 * Where a step's answer goes as it arrives: into the work folder for the next step, or into the results
 * store. It takes the answer's bytes, or a finished file in the work folder, and returns where it put
 * them (a path, or the stored result's name).
 */
export type Sink = (from: Readable | string, readableName: string) => Promise<string>;

export interface StepOutput {
  /** What the step's sink returned: the result's path in the work folder, or its name in the store. */
  saved: string;
  kind: FileKind;
  name: string;
  properties: Record<string, unknown>;
  /** The service's own account of its time (its Server-Timing: the tool's and its check's), in ms. */
  timing: Record<string, number>;
}

interface Call {
  tool: Tool;
  requestId: string;
  /** The request's job: the call ends when its signal aborts. */
  job: Job;
  sink: Sink;
  /** A queued job's call: the service gives it what is left of the job's time, not only its own limit. */
  queued?: boolean;
  /** Told the pages the service has done so far, when it says (`102 Processing`, `X-Quire-Pages-Done`). */
  onPages?: (pagesDone: number) => void;
}

/** A step on files in the work folder. */
export interface StepRequest extends Call {
  inputs: StepInput[];
  /** Form fields to pass on as given: options, password, url. */
  fields: Record<string, string>;
}

/** A first step on the client's upload, passed on as it arrives. */
export interface RelayRequest extends Call {
  form: RelayedForm;
}

let files = 0;

/** A fresh path in the work folder, never one the client named. */
export function workFile(workdir: string): string {
  return join(workdir, `out-${++files}`);
}

/** A sink that keeps a step's result in the work folder, for the next step. */
export function toWorkFolder(workdir: string): Sink {
  return async (from) => {
    if (typeof from === 'string') return from;
    const path = workFile(workdir);
    await pipeline(from, createWriteStream(path));
    return path;
  };
}

/**
 * Calls the service that owns a tool over HTTP, by the contract's `/tools/:id`, and hands its answer to
 * the step's sink. A service may run as several instances: calls start at each in turn, and move on to
 * the next one only when the connection is refused, since such a request never reached a service. An
 * office instance that is an official Gotenberg is called through its own route.
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

  /**
   * Whether a tool's upload may be passed on as it arrives. Not to an official Gotenberg, which takes a
   * document by its kind's extension, so the gateway must read and judge it first; asked of the
   * instance whose turn it is.
   */
  async relays(tool: Tool): Promise<boolean> {
    const urls = this.urls[tool.service] ?? [];
    if (tool.service !== 'office' || urls.length === 0) return true;
    const next = urls[(this.turn.get(tool.service) ?? 0) % urls.length]!;
    return !(await this.isGotenberg(next));
  }

  async run(step: StepRequest): Promise<StepOutput> {
    const bases = this.instances(step.tool.service);
    if (bases.length === 0) throw notDeployed(step.tool);
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
    if (step.tool.service === 'office' && (await this.isGotenberg(base, step.job.signal))) {
      return convertWithGotenberg(base, step, workFile(step.job.workdir));
    }
    const form = new FormData();
    for (const input of step.inputs) form.append('file', await openAsBlob(input.path), input.name);
    for (const [k, v] of Object.entries(step.fields)) form.append(k, v);
    // Encoded as fetch encodes a form, files read as they are sent; sent over node:http, which waits for
    // the answer as long as the job may run (fetch gives up on an answer after 300 s).
    const encoded = new Request(base, { method: 'POST', body: form });
    const body = Readable.fromWeb(encoded.body as WebReadableStream<Uint8Array>);
    const res = await post(base, { ...step, contentType: encoded.headers.get('content-type')!, body });
    return take(answerOf(res), step);
  }

  /**
   * Passes the client's upload on to the service as it arrives. The connection is made before any of
   * the body is read, so that an instance that refuses it leaves the body whole for the next one.
   */
  async relay(step: RelayRequest): Promise<StepOutput> {
    const bases = this.instances(step.tool.service);
    if (bases.length === 0) throw notDeployed(step.tool);
    for (let i = 0; ; i++) {
      let socket;
      try {
        socket = await connect(bases[i]!, step.job.signal);
      } catch (err) {
        if (refused(err) && i + 1 < bases.length) continue;
        throw failure(err, step.job.signal);
      }
      try {
        return await relayOn(bases[i]!, socket, step);
      } catch (err) {
        throw failure(err, step.job.signal);
      }
    }
  }

  /**
   * Whether an office instance is an official Gotenberg rather than Quire's office service, which
   * answers Gotenberg's `/version` with `-quire` in it. Asked once per instance; one that does not
   * answer is taken for ours until it does (the call that follows fails as any call to it would).
   */
  private async isGotenberg(base: string, signal?: AbortSignal): Promise<boolean> {
    const known = this.gotenberg.get(base);
    if (known !== undefined) return known;
    try {
      const limit = AbortSignal.timeout(5000);
      const res = await fetch(`${base}/version`, { signal: signal ? AbortSignal.any([signal, limit]) : limit });
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

/** The upload sent on over a connection already made, and the service's answer taken. */
async function relayOn(base: string, socket: Socket, step: RelayRequest): Promise<StepOutput> {
  const { contentType, body } = step.form;
  // The client's side first: an upload that broke a bound is answered as before any service was called.
  const res = await post(base, { ...step, contentType, body, socket, failed: () => step.form.failed });
  return take(answerOf(res), step);
}

/**
 * A tool call's body sent to a service, and its answer. `failed` says when the body broke on the
 * sender's side, which then is the error whatever the service answered.
 */
async function post(
  base: string,
  call: Call & { contentType: string; body: Readable; socket?: Socket; failed?: () => ToolError | undefined },
): Promise<IncomingMessage> {
  const url = `${base}/tools/${call.tool.id}`;
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  // TE: a result comes while it is checked, its verdict after it (see verdictTrailer).
  const headers: Record<string, string> = {
    'Content-Type': call.contentType,
    'X-Request-Id': call.requestId,
    TE: 'trailers',
  };
  if (call.queued) headers['X-Quire-Time-Ms'] = String(timeLeft(call.job.deadline));
  const req = request(url, {
    method: 'POST',
    ...(call.socket && { createConnection: () => call.socket! }),
    headers,
    signal: call.job.signal,
  });
  // Its failures are read from the send and the answer below; this keeps a late one from going unheard.
  req.on('error', () => {});
  req.on('information', (info) => {
    const done = Number(info.headers['x-quire-pages-done']);
    if (info.statusCode === 102 && Number.isSafeInteger(done)) call.onPages?.(done);
  });
  const answered = once(req, 'response') as Promise<[IncomingMessage]>;
  const [sent, answer] = await Promise.allSettled([pipeline(call.body, req), answered]);
  const failed = call.failed?.();
  if (failed) {
    if (answer.status === 'fulfilled') answer.value[0].destroy();
    throw failed;
  }
  if (answer.status === 'rejected') throw sent.status === 'rejected' ? sent.reason : answer.reason;
  const [res] = answer.value;
  // A service answers a tool call once it has read the whole upload; only an error may come sooner.
  if (sent.status === 'rejected' && res.statusCode === 200) {
    res.destroy();
    throw sent.reason;
  }
  return res;
}

function answerOf(res: IncomingMessage) {
  const header = (name: string) => {
    const value = res.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return { status: res.statusCode ?? 0, header, trailer: (name: string) => res.trailers[name], body: res };
}

function notDeployed(tool: Tool): ToolError {
  return new ToolError('not_available', `The ${tool.name} tool is not available on this server yet.`);
}

/** What a connection that broke or could not be made says, fetch's (a TypeError) aside. */
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * A failed call as the contract's error: the job's own reason when it was stopped (time up, client
 * gone), not_available when the service could not be reached or cut the answer off.
 */
function failure(err: unknown, signal: AbortSignal): ToolError {
  if (signal.aborted) {
    return signal.reason instanceof ToolError ? signal.reason : new ToolError('timeout', undefined, { cause: err });
  }
  if (err instanceof ToolError) return err;
  // fetch says a connection refused, reset or not resolved with a TypeError.
  if (err instanceof TypeError || connectionCodes.has((err as { code?: string })?.code ?? '')) {
    return new ToolError('not_available', undefined, { cause: err });
  }
  return new ToolError('internal', undefined, { cause: err });
}

/** A refused connection (fetch names it in its error's causes): the request was never sent. */
function refused(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === 'ECONNREFUSED') return true;
  }
  return false;
}
