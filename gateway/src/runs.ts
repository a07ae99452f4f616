import { createReadStream } from 'node:fs';
import type { NextFunction, Request, Response } from 'express';
import {
  checkFileCount,
  checkWorkflow,
  findTool,
  parseOptions,
  takesPassword,
  takesUrl,
  type WorkflowStep,
  type Tool,
} from '@quire/catalog';
import { ToolError, safeName, toToolError, trackRequest, type Job, type Logger } from '@quire/base';
import { checkPublicUrl, checkToolRequest, emptyFile, runJob, unsupportedType, uploadMiddleware } from '@quire/http';
import { userOf } from './auth.ts';
import { countUse, recordRun, type Db } from './db.ts';
import type { GatewayMetrics } from './metrics.ts';
import { relayForm, type RelayedForm } from './relay.ts';
import type { ResultStore } from './results.ts';
import { toWorkFolder, type ServiceClient, type Sink, type StepInput, type StepOutput } from './service-client.ts';

export interface RunDeps {
  db: Db;
  store: ResultStore;
  client: ServiceClient;
  metrics: GatewayMetrics;
  log: Logger;
  /** The bound of each uploaded file (UPLOAD_LIMIT_MB), in bytes. */
  uploadLimitBytes: number;
}

/** Resolves the chain a request asks for before anything is uploaded: one tool, or a checked workflow. */
export function resolveChain(req: Request, res: Response, next: NextFunction): void {
  const q = req.query;
  // A job names its workflow by its steps alone.
  const isWorkflow =
    req.path.endsWith('/workflows') ||
    q.workflow !== undefined ||
    (req.path.endsWith('/jobs') && q.steps !== undefined);
  // A saved workflow's steps, with their options, were loaded by loadSavedWorkflow.
  const saved = res.locals.savedSteps as WorkflowStep[] | undefined;
  const namesTool = typeof req.params.toolId === 'string' || q.tool !== undefined;
  if (saved && namesTool) return next(new ToolError('invalid_workflow', 'Name a tool or a saved workflow, not both.'));
  if (isWorkflow || saved) {
    const steps = saved ?? (typeof q.steps === 'string' ? q.steps.split(',').map((s) => s.trim()) : []);
    const checked = checkWorkflow(steps);
    if (!checked.ok) return next(new ToolError(checked.code, checked.message));
    res.locals.chain = checked.value.tools;
    res.locals.stepFields = checked.value.fields;
    return next();
  }
  const id = typeof req.params.toolId === 'string' ? req.params.toolId : typeof q.tool === 'string' ? q.tool : '';
  const tool = findTool(id);
  if (!tool)
    return next(new ToolError('unknown_tool', id ? `There is no tool called "${id}".` : 'Please name a tool.'));
  res.locals.chain = [tool];
  next();
}

/** The fields a step passes on to its service: the tool's own options, the password and the URL. */
function allowedFields(tool: Tool): Set<string> {
  const allowed = new Set(Object.keys((tool.options as { shape?: object }).shape ?? {}));
  if (takesPassword(tool)) allowed.add('password');
  if (takesUrl(tool)) allowed.add('url');
  return allowed;
}

/** Of a parsed form's fields, those a step passes on: the first value of each, when not empty. */
export function forwardedFields(tool: Tool, body: Record<string, unknown>): Record<string, string> {
  const allowed = allowedFields(tool);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (allowed.has(k) && typeof value === 'string' && value !== '') fields[k] = value;
  }
  return fields;
}

/** The upload read into the work folder by multer, for the calls that are not passed on as they arrive. */
export function upload(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) =>
    uploadMiddleware()(req, res, (err?: unknown) => (err ? reject(err) : resolve())),
  );
}

/**
 * Runs a tool or a chain of tools on the upload and answers with the stored result's name. A file tool's
 * upload is passed on to the first step's service as it arrives, which checks it as the contract says
 * (files, kinds, options); the last step's answer goes straight into the results store.
 */
export function runChain(deps: RunDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const chain = res.locals.chain as Tool[];
    const first = chain[0]!;
    const label = chain.length > 1 ? 'workflow' : first.id;
    // One count per public request, under its tool or `workflow`; the services count each step.
    const finish = trackRequest(deps, label, res.locals.requestId as string);
    let form: RelayedForm | undefined;
    try {
      const stepFields = res.locals.stepFields as Steps['stepFields'];
      const steps: Steps = { chain, inputs: [], fields: {}, stepFields, requestId: res.locals.requestId as string };
      // A first step with saved options is read here, where they join the request's fields.
      const savedFirst = Object.keys(stepFields?.[0] ?? {}).length > 0;
      if (!takesUrl(first) && !savedFirst && (await deps.client.relays(first))) {
        steps.form = form = relayForm(req, allowedFields(first), deps.uploadLimitBytes);
      } else {
        // A web address (no file, and checked here against private targets), or an official Gotenberg,
        // which takes a document by the kind the gateway judges: the request is read and checked here.
        await upload(req, res);
        // A first step's saved options are checked with the request's own fields, which win over them.
        if (savedFirst) req.body = { ...stepFields![0], ...(req.body ?? {}) };
        const request = await checkToolRequest(first, req);
        if (request.url) await checkPublicUrl(request.url);
        steps.inputs = request.inputs.map(({ path, name, kind }) => ({ path, name, kind }));
        steps.fields = forwardedFields(first, req.body ?? {});
      }
      // No queue here (each service keeps its own); each step may take a whole call's time.
      const limits = { timeoutMs: deps.client.timeoutMs * chain.length };
      const timing: Record<string, number> = {};
      const store = toStore(deps.store, timing);
      const began = performance.now();
      const output = await runJob(res, res.locals.workdir as string, limits, (job) =>
        runSteps(deps.client, steps, job, store),
      );
      // `steps` holds the whole job, upload and storing included; `store` the last answer's way into the store.
      res.setHeader('Server-Timing', serverTiming({ ...output.timing, steps: performance.now() - began, ...timing }));
      const download = output.saved;
      deps.metrics.resultsSaved.inc();
      // Counted once the result is kept: a run whose result could not be stored was no use to anyone.
      for (const tool of chain) await countUse(deps.db, tool.id);
      const user = userOf(res);
      if (user) {
        // A signed-in user's history: the tool (a workflow's steps, comma-separated) and the result while it lives.
        await recordRun(deps.db, {
          userId: user.uid,
          tool: chain.map((t) => t.id).join(','),
          download,
          expiresAt: new Date(Date.now() + deps.store.ttlMs),
        });
      }
      // When the result stops being downloadable, so that a shared link can say how long it works.
      const expiresAt = new Date(Date.now() + deps.store.ttlMs).toISOString();
      res.json({ download, expiresAt, properties: output.properties });
      finish('ok');
    } catch (err) {
      finish(toToolError(err).code);
      // As multer does, the rest of a refused upload is read first, so that the client hears the answer.
      await form?.stop();
      next(err);
    }
  };
}

export interface Steps {
  chain: Tool[];
  /** The first step's upload, passed on as it arrives; else its files in the work folder. */
  form?: RelayedForm;
  inputs: StepInput[];
  /** The first step's fields from the request, when read here (over its saved options). */
  fields: Record<string, string>;
  /** Each step's options, as a saved workflow gives them; else every step but the first takes its defaults. */
  stepFields?: Record<string, string>[];
  requestId: string;
  /** A queued job's steps: each call may take what is left of the job's time. */
  queued?: boolean;
  /** Told the pages of a step's file done so far, as its service says: a job's progress within a file. */
  onPages?: (pagesDone: number) => void;
  /** Told as each step ends, with how many have: a job's progress. */
  onStep?: (done: number) => Promise<void>;
}

/** The last step's sink: its answer into the results store, as it arrives; `timing.store` says how long that took. */
export function toStore(store: ResultStore, timing: Record<string, number>): Sink {
  return async (from, readableName) => {
    const began = performance.now();
    try {
      return await store.saveStream(typeof from === 'string' ? createReadStream(from) : from, safeName(readableName));
    } finally {
      timing.store = performance.now() - began;
    }
  };
}

/** Durations in ms as a Server-Timing header. */
function serverTiming(timing: Record<string, number>): string {
  return Object.entries(timing)
    .map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`)
    .join(', ');
}

/**
 * Whether a first step's error is the service's check of the upload (the one a tool call gets, as
 * `checkToolRequest` makes it from the files and fields passed on), rather than its tool's: in a
 * workflow, the former is the client's request, answered as for a tool call, never as a step's.
 */
function isUploadCheck(tool: Tool, form: RelayedForm, e: ToolError): boolean {
  const same = (other: { code: string; message: string }) => e.code === other.code && e.message === other.message;
  const count = checkFileCount(tool, form.files.length);
  if (count) return same(count);
  const options = parseOptions(tool, form.fields);
  if (!options.ok && same(options)) return true;
  return form.files.some(
    (name) => same(emptyFile(name)) || same(unsupportedType(tool, name)) || same(unsupportedType(tool, name, true)),
  );
}

/** Each step on the one before's result; in a workflow, an error names the step at fault. */
export async function runSteps(client: ServiceClient, steps: Steps, job: Job, store: Sink): Promise<StepOutput> {
  const { form } = steps;
  // The job's end (time up, client gone) ends the upload too.
  job.signal.addEventListener('abort', () => form?.cancel(job.signal.reason), { once: true });
  let inputs = steps.inputs;
  let output: StepOutput | undefined;
  // A workflow's timing is its steps' summed: how long its tools and their checks took in all.
  const timing: Record<string, number> = {};
  // Each step's own checks: a workflow's answer says what was checked of every step, not only the last.
  const checked: { tool: string; checks: unknown }[] = [];
  for (const [i, tool] of steps.chain.entries()) {
    const sink = i === steps.chain.length - 1 ? store : toWorkFolder(job.workdir);
    const call = { tool, requestId: steps.requestId, job, sink, queued: steps.queued, onPages: steps.onPages };
    try {
      if (i === 0 && form) {
        if (!(await form.started)) {
          // No file at all: nothing to pass on, and the answer is the contract's own.
          const invalid = checkFileCount(tool, 0);
          if (invalid) throw new ToolError(invalid.code, invalid.message);
        }
        output = await client.relay({ ...call, form });
      } else {
        const fields = { ...steps.stepFields?.[i], ...(i === 0 ? steps.fields : {}) };
        output = await client.run({ ...call, inputs, fields });
      }
    } catch (err) {
      const e = toToolError(err);
      if (steps.chain.length === 1) throw e;
      if (i === 0 && form && (err === form.failed || isUploadCheck(tool, form, e))) throw e;
      throw new ToolError(e.code, `Step ${i + 1} (${tool.name}): ${e.message}`, {
        cause: e.cause,
        headers: e.headers,
        details: { ...e.details, tool: tool.id, step: i + 1 },
      });
    }
    for (const [name, ms] of Object.entries(output.timing)) timing[name] = (timing[name] ?? 0) + ms;
    inputs = [{ path: output.saved, name: output.name, kind: output.kind }];
    checked.push({ tool: tool.id, checks: output.properties.checks ?? [] });
    await steps.onStep?.(i + 1);
  }
  const properties = checked.length > 1 ? { ...output!.properties, steps: checked } : output!.properties;
  return { ...output!, properties, timing };
}
