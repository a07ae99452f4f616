import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { constants, jobFileLimit, parseOptions, type Tool } from '@quire/catalog';
import { ToolError } from '@quire/base';
import { checkPublicUrl, checkToolRequest, uploadedFiles } from '@quire/http';
import { openZipEntry, pageCountOrNaN } from '@quire/pdf';
import { userOf } from '../auth.ts';
import type { JobsConfig } from '../config.ts';
import { sendResult, type ResultStore } from '../results.ts';
import { forwardedFields, resolveChain, upload } from '../runs.ts';
import type { Dispatch } from './dispatch.ts';
import { isFinal, publicView, type FileProgress, type JobRecord, type JobSpec, type RecordStore } from './records.ts';
import { endJob, jobFolder } from './worker.ts';
import type { Webhooks } from './webhook.ts';

export interface JobsApiDeps {
  config: JobsConfig;
  records: RecordStore;
  dispatch: Dispatch;
  store: ResultStore;
  webhooks: Webhooks;
  /** What one file may take through one step: the service's job limit and a margin. */
  stepTimeoutMs: number;
  /** How long a live record is kept. */
  liveTtlMs: number;
  /** What every tool call goes through first (the rate limit, the body's size, a saved workflow's loading). */
  guards: RequestHandler[];
}

/** 144 random bits: a job's id is the key to it. */
const newJobId = () => randomBytes(18).toString('base64url');
const idPattern = /^[A-Za-z0-9_-]{24}$/;

/** How long a client that has too many jobs is told to wait. */
const busyRetrySeconds = 10;
/** Between two comments that keep an event stream open through proxies. */
const keepAliveMs = 15_000;

type Input = JobSpec['inputs'][number];

/** POST/GET/DELETE /api/v1/jobs: tool calls and workflows as jobs, answered at once and run by the workers. */
export function jobsApi(deps: JobsApiDeps): express.Router {
  const router = express.Router();

  const find = async (req: Request): Promise<JobRecord> => {
    const id = String(req.params.id ?? '');
    const record = idPattern.test(id) ? await deps.records.get(id) : undefined;
    if (!record) throw new ToolError('not_found', 'There is no such job, or it has expired.');
    return record;
  };
  const handle =
    (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) =>
      fn(req, res).catch(next);

  router.post('/api/v1/jobs', ...deps.guards, resolveChain, handle(submit(deps)));

  router.get(
    '/api/v1/jobs/:id',
    handle(async (req, res) => {
      res.setHeader('Cache-Control', 'private, no-store');
      res.json(publicView(await find(req)));
    }),
  );

  router.get(
    '/api/v1/jobs/:id/result',
    handle(async (req, res) => {
      const record = await find(req);
      if (record.state === 'cancelled') throw new ToolError('job_cancelled');
      if (record.state === 'failed') throw new ToolError(record.error!.code as 'internal', record.error!.message);
      if (record.state !== 'done') throw new ToolError('job_not_finished');
      const found = await deps.store.find(record.result!.download);
      if (!found) throw new ToolError('not_found', 'This result has expired.');
      sendResult(res, found);
    }),
  );

  router.get(
    '/api/v1/jobs/:id/files/:n',
    handle(async (req, res) => {
      const record = await find(req);
      if (record.state !== 'done') throw new ToolError('job_not_finished');
      // The n-th file sent (from 1), as the report lists them.
      const n = /^[1-9][0-9]{0,3}$/.test(String(req.params.n)) ? Number(req.params.n) : 0;
      const entry = record.result?.report?.[n - 1];
      if (!entry) throw new ToolError('not_found', 'This job has no such file.');
      if (!entry.result) throw new ToolError(entry.error!.code as 'internal', entry.error!.message);
      const found = await deps.store.find(record.result!.download);
      // Read from the batch's zip, the one copy kept: only the name the report gives is looked up.
      const inZip =
        found &&
        (await openZipEntry({ size: found.size, read: (start, end) => found.open({ start, end }) }, entry.result));
      if (!inZip) throw new ToolError('not_found', 'This result has expired.');
      sendResult(res, { readableName: entry.result, size: inZip.size, open: () => inZip.stream });
    }),
  );

  router.get(
    '/api/v1/jobs/:id/events',
    handle(async (req, res) => {
      const first = await find(req);
      streamEvents(deps.records, first, res);
    }),
  );

  router.delete(
    '/api/v1/jobs/:id',
    handle(async (req, res) => {
      const record = await find(req);
      await cancelJob(deps, record);
      res.json(publicView((await deps.records.get(record.id)) ?? record));
    }),
  );

  return router;
}

/** Cancels a job that has not ended: one no worker has taken leaves the queue, and its uploads go. */
async function cancelJob(deps: JobsApiDeps, record: JobRecord): Promise<void> {
  if (isFinal(record.state) || !(await endJob(deps, record.id, { state: 'cancelled' }))) return;
  if (record.state === 'queued') {
    await deps.dispatch.drop(record.id);
    await rm(jobFolder(deps.config.dir, record.id), { recursive: true, force: true });
  }
}

/** The job's record now and at each change, as Server-Sent Events, numbered; the stream ends with the job. */
function streamEvents(records: RecordStore, first: JobRecord, res: Response): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'private, no-store',
    Connection: 'keep-alive',
    // nginx passes each event on as it comes.
    'X-Accel-Buffering': 'no',
  });
  let sequence = 0;
  let last = '';
  let stop = () => {};
  const send = (record: JobRecord) => {
    if (res.writableEnded) return;
    const data = JSON.stringify(publicView(record));
    if (data === last) return;
    last = data;
    res.write(`id: ${++sequence}\nevent: ${record.state}\ndata: ${data}\n\n`);
    if (isFinal(record.state)) end();
  };
  const keepAlive = setInterval(() => res.write(': still here\n\n'), keepAliveMs);
  const end = () => {
    clearInterval(keepAlive);
    stop();
    res.end();
  };
  res.on('close', end);
  // Watched before the record is read again, so that no change falls between the two.
  void records.watch(first.id, send).then(async (unwatch) => {
    stop = unwatch;
    if (res.writableEnded) return unwatch();
    send((await records.get(first.id)) ?? first);
  }, end);
}

/** The job's client for the per-client bound: the signed-in user, else the address. */
function clientOf(req: Request, res: Response): string {
  const user = userOf(res);
  return user ? `user:${user.uid}` : `ip:${req.ip ?? 'unknown'}`;
}

/** Refuses a job beyond the client's bound of jobs queued or running; notes the new one otherwise. */
async function reservePlace(deps: JobsApiDeps, client: string, id: string): Promise<void> {
  const ids = await deps.records.noteClientJob(client, id, deps.liveTtlMs);
  const others = await Promise.all(ids.filter((other) => other !== id).map((other) => deps.records.get(other)));
  const live = others.filter((r) => r && !isFinal(r.state)).length;
  if (live >= deps.config.perClient) {
    throw new ToolError(
      'busy',
      `You have ${live} jobs queued or running, the most one client may have. Please wait until one ends.`,
      { headers: { 'Retry-After': String(busyRetrySeconds) } },
    );
  }
}

function submit(deps: JobsApiDeps) {
  return async (req: Request, res: Response) => {
    const chain = res.locals.chain as Tool[];
    const first = chain[0]!;
    const id = newJobId();
    const client = clientOf(req, res);
    await reservePlace(deps, client, id);
    const folder = jobFolder(deps.config.dir, id);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    res.locals.workdir = folder;
    try {
      await upload(req, res);
      const { inputs, batch } = await checkInputs(first, req);
      const webhook = await checkWebhook(req);
      const fields = forwardedFields(first, req.body ?? {});
      const pages = await countPages(folder, inputs);
      const timeoutMs = deadline(deps, chain, inputs);
      const user = userOf(res);
      const label = chain.length > 1 ? 'workflow' : first.id;
      const record: JobRecord = {
        id,
        state: 'queued',
        tool: label,
        steps: chain.map((t) => t.id),
        createdAt: new Date().toISOString(),
        progress: {
          files: { done: 0, total: inputs.length },
          ...(pages !== undefined && { pages: { done: 0, total: pages } }),
          ...(batch && { perFile: inputs.map(fileProgress) }),
        },
        spec: {
          steps: chain.map((t) => t.id),
          inputs,
          fields,
          ...(res.locals.stepFields && { stepFields: res.locals.stepFields as Record<string, string>[] }),
          batch,
          timeoutMs,
          client,
          requestId: res.locals.requestId as string,
          ...(user && { owner: user.uid }),
          ...(webhook && { webhook }),
        },
      };
      await deps.records.create(record, deps.liveTtlMs);
      await deps.dispatch.add(id);
      // A client gone before it heard of its job (its upload cancelled as it ended) can never follow or
      // cancel it: the job is cancelled rather than left to hold the client's place.
      const unheard = () => void cancelJob(deps, record).catch(() => undefined);
      if (res.destroyed) return unheard();
      res.once('close', () => !res.writableFinished && unheard());
      res
        .status(202)
        .location(`/api/v1/jobs/${id}`)
        .json({ ...publicView(record), status: `/api/v1/jobs/${id}`, events: `/api/v1/jobs/${id}/events` });
    } catch (err) {
      await rm(folder, { recursive: true, force: true });
      throw err;
    }
  };
}

/**
 * The upload checked as a tool call's is. A single-file tool given several files makes a batch: up to
 * the catalog's bound, each file checked on its own, and one that is refused is reported rather than
 * refusing the job.
 */
async function checkInputs(first: Tool, req: Request): Promise<{ inputs: Input[]; batch: boolean }> {
  const files = uploadedFiles(req);
  const limit = jobFileLimit(first);
  if (!limit.batch || files.length <= 1) {
    const request = await checkToolRequest(first, req);
    if (request.url) await checkPublicUrl(request.url);
    return {
      inputs: request.inputs.map((i) => ({ file: basename(i.path), name: i.name, kind: i.kind })),
      batch: false,
    };
  }
  if (files.length > limit.max) {
    throw new ToolError(
      'too_many_files',
      `A batch takes at most ${limit.max} files; please send the rest in another job.`,
    );
  }
  const options = parseOptions(first, req.body ?? {});
  if (!options.ok) throw new ToolError(options.code, options.message);
  const inputs: Input[] = [];
  for (const file of files) {
    try {
      const [input] = (await checkToolRequest(first, { files: [file], body: req.body } as unknown as Request)).inputs;
      inputs.push({ file: basename(input!.path), name: input!.name, kind: input!.kind });
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      inputs.push({
        file: basename(file.path),
        name: file.originalname,
        error: { code: err.code, message: err.message },
      });
    }
  }
  return { inputs, batch: true };
}

/** A batch's file before it runs: one its check refused has failed already. */
function fileProgress(input: Input): FileProgress {
  if (input.error) return { file: input.name, state: 'failed', error: input.error };
  return { file: input.name, state: 'queued', ...(input.pages !== undefined && { pages: input.pages }) };
}

/** The job's webhook, when it has one: an address on the public internet, as pdf-from-url's. */
async function checkWebhook(req: Request): Promise<string | undefined> {
  const raw = (req.body as Record<string, unknown> | undefined)?.webhook ?? req.query.webhook;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    return (await checkPublicUrl(value.trim())).href;
  } catch (err) {
    if (err instanceof ToolError) throw new ToolError(err.code, `The webhook address cannot be used: ${err.message}`);
    throw err;
  }
}

/** Each PDF's pages, noted on its input; their sum, when every input is a PDF whose pages could be read. */
async function countPages(folder: string, inputs: Input[]): Promise<number | undefined> {
  const job = { workdir: folder, signal: AbortSignal.timeout(30_000), deadline: Date.now() + 30_000 };
  let total: number | undefined = inputs.length > 0 ? 0 : undefined;
  for (const input of inputs) {
    const pages = input.kind === 'pdf' ? await pageCountOrNaN(`${folder}/${input.file}`, job).catch(() => NaN) : NaN;
    if (Number.isInteger(pages)) input.pages = pages;
    total = total !== undefined && Number.isInteger(pages) ? total + pages : undefined;
  }
  return total;
}

/**
 * How long a job may run once started: each file its share (a step's limit per step, and its pages'
 * worth: OCR's pace when a step may read pages by OCR), within the deployment's maximum.
 */
function deadline(deps: JobsApiDeps, chain: Tool[], inputs: Input[]): number {
  const perFile = deps.stepTimeoutMs * chain.length;
  const pageMs = chain.some((t) => t.ocr) ? Math.max(deps.config.pageMs, constants.ocrPageMs) : deps.config.pageMs;
  const shares = inputs.length === 0 ? [perFile] : inputs.map((i) => perFile + (i.pages ?? 0) * pageMs);
  return Math.min(
    deps.config.maxMs,
    shares.reduce((a, b) => a + b, 0),
  );
}
