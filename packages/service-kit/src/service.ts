import { join } from 'node:path';
import express, { type Response } from 'express';
import { findTool, outputKind, type FileKind, type ServiceName, type Tool } from '@quire/catalog';
import {
  createLogger,
  createMetrics,
  readServiceConfig,
  requestIdMiddleware,
  ToolError,
  toToolError,
  trackRequest,
  type Job,
  type Logger,
  type Metrics,
} from '@quire/base';
import {
  checkToolRequest,
  errorHandler,
  JobQueue,
  runJob,
  takesTrailers,
  uploadMiddleware,
  watchQueue,
  workdirMiddleware,
  type ToolInput,
} from '@quire/http';
import { openPdf, readInputsAhead, verifyCounted } from '@quire/pdf';
import { EarlyAnswer, sendResult, type Made } from './answer.ts';

/** One job of a tool; `Options` are the tool's options as its catalog schema parsed them. */
export interface ToolContext<Options = Record<string, unknown>> {
  inputs: ToolInput[];
  url?: string;
  options: Options;
  password?: string;
  /** Private to this request, removed when it ends: write outputs here. */
  workdir: string;
  /** Aborted on timeout or when the client goes away; pass it to exec. */
  signal: AbortSignal;
  /** What is left of the job's time, for the programs it runs. */
  deadline: number;
  /** The whole time this job was given: `JOB_TIMEOUT_MS`, or more for a queued job. Work may scale with it. */
  timeMs: number;
  /** Says how many of the input's pages are done so far: a long job's progress, before the answer. */
  progress?: (pagesDone: number) => void;
  log: Logger;
}

export interface ToolResult {
  path: string;
  /** The kind made, when the catalog's declared output is not enough to tell. */
  kind?: FileKind;
  /** A readable file name for the result; by default the first input's, with the output's extension. */
  name?: string;
  /** What the tool did, for the caller: pages, bytes, choices made. */
  properties?: Record<string, unknown>;
  /**
   * A PDF result whose every stream its engine has just decoded and checked (as OCRmyPDF checks what
   * it writes): the check then reads its structure and sampled pages, not every stream again.
   */
  streamsChecked?: boolean;
  /**
   * Checks of the tool's own still under way (a VerificationError when one fails): they run beside
   * the kit's check of the result, which is offered only once both have passed.
   */
  checking?: Promise<void>;
}

export type ToolRun<Options = Record<string, unknown>> = (ctx: ToolContext<Options>) => Promise<ToolResult>;

export interface ServiceOptions {
  name: ServiceName;
  /** One implementation per catalog tool of this service, by canonical id. */
  tools: Record<string, ToolRun>;
  /** Checks the engines; throws when one is not usable. */
  health?: () => Promise<Record<string, unknown>>;
  /** Extra routes, such as a compatibility API. */
  routes?: (app: express.Express, kit: ServiceKit) => void;
}

export interface ServiceKit {
  log: Logger;
  metrics: Metrics;
  queue: JobQueue;
  /** A call's time (`JOB_TIMEOUT_MS`), unless it asks for more. */
  timeoutMs: number;
  /** The most a call may ask for (`JOBS_MAX_SECONDS`). */
  maxTimeoutMs: number;
}

/**
 * The time a call is given. A queued job's worker asks with `X-Quire-Time-Ms` for what is left of the
 * job's time (a long scan's OCR, say), up to the deployment's maximum; any other call has the usual
 * limit. Services are reached only by the gateway and its workers, never by a visitor.
 */
export function callTime(asked: string | undefined, kit: Pick<ServiceKit, 'timeoutMs' | 'maxTimeoutMs'>): number {
  const ms = asked && /^\d{1,10}$/.test(asked) ? Number(asked) : 0;
  return ms > 0 ? Math.min(ms, kit.maxTimeoutMs) : kit.timeoutMs;
}

/** The express app of a service, without listening: tests run it in-process. */
export function createServiceApp(opts: ServiceOptions): express.Express {
  const log = createLogger(opts.name);
  const metrics = createMetrics(opts.name);
  // The service's one schema, with its defaults: main.ts has already read it once, so a bad value never gets here.
  const { jobTimeoutMs, maxJobTimeoutMs, queueConcurrency, queueMaxWaiting } = readServiceConfig(opts.name);
  const queue = new JobQueue(queueConcurrency, queueMaxWaiting);
  const kit: ServiceKit = { log, metrics, queue, timeoutMs: jobTimeoutMs, maxTimeoutMs: maxJobTimeoutMs };
  watchQueue(metrics, queue);

  const app = express();
  app.disable('x-powered-by');
  app.use(requestIdMiddleware);

  app.get('/health', async (_req, res) => {
    try {
      const engines = (await opts.health?.()) ?? {};
      res.json({ status: 'up', service: opts.name, engines, queue: { waiting: queue.size, running: queue.active } });
    } catch (err) {
      log.error('health check failed', { err: String(err) });
      res.status(503).json({ status: 'down', service: opts.name });
    }
  });

  // Prometheus's usual path, and Gotenberg's (the office service speaks its API).
  app.get(['/metrics', '/prometheus/metrics'], async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  opts.routes?.(app, kit);

  app.post(
    '/tools/:toolId',
    (req, res, next) => {
      const tool = findTool(String(req.params.toolId));
      if (!tool || tool.service !== opts.name || !opts.tools[tool.id]) {
        return next(new ToolError('unknown_tool', `There is no tool "${String(req.params.toolId)}" here.`));
      }
      res.locals.tool = tool;
      res.locals.began = performance.now();
      next();
    },
    workdirMiddleware(opts.name),
    uploadMiddleware(),
    async (req, res, next) => {
      const tool = res.locals.tool as Tool;
      const finish = trackRequest(kit, tool.id, res.locals.requestId as string);
      try {
        const request = await checkToolRequest(tool, req);
        const upload = performance.now() - (res.locals.began as number);
        const timeMs = callTime(req.get('x-quire-time-ms'), kit);
        const progress = (pagesDone: number) => tellProgress(res, pagesDone);
        const inputName = request.inputs[0]?.name;
        // A caller that takes trailers gets the result while it is checked, the verdict after it.
        const early = takesTrailers(req) ? new EarlyAnswer(res) : undefined;
        const withUpload = <T extends Made>(m: T): T => ({ ...m, timing: { upload, ...m.timing } });
        const work = async (job: Job) => {
          const ctx = { ...request, ...job, timeMs, progress, log };
          const made = early && ((m: Made) => early.start(tool, request.options, inputName, withUpload(m)));
          return withUpload(await runVerified(tool, opts.tools[tool.id]!, ctx, metrics, made));
        };
        const result = await runJob(res, res.locals.workdir as string, { queue, timeoutMs: timeMs }, work);
        if (early?.started) {
          const checks = result.properties.checks as string[];
          await early.end({ checks, timing: { verify: result.timing.verify! } });
        } else await sendResult(res, tool, request.options, inputName, result);
        finish('ok');
      } catch (err) {
        finish(toToolError(err).code);
        next(err);
      }
    },
  );

  app.use((_req, _res, next) => next(new ToolError('not_found')));
  app.use(errorHandler(log));
  return app;
}

/**
 * An informational `102 Processing` with `X-Quire-Pages-Done`, written ahead of the answer: the caller
 * (a queued job's worker) reads it as the job's progress; any other caller passes over it.
 */
function tellProgress(res: Response, pagesDone: number): void {
  if (res.headersSent || !res.socket?.writable || !Number.isSafeInteger(pagesDone)) return;
  res.socket.write(`HTTP/1.1 102 Processing\r\nX-Quire-Pages-Done: ${pagesDone}\r\n\r\n`);
}

/** A verified result, with how long each part of the call took (milliseconds, for Server-Timing). */
interface VerifiedResult extends ToolResult {
  properties: Record<string, unknown>;
  timing: Record<string, number>;
}

/**
 * Runs a tool on its inputs (PDFs decrypted first, once, for every tool) and checks the result against
 * the catalog's promises before anything is offered. What was checked goes into the result's properties.
 */
async function runVerified(
  tool: Tool,
  run: ToolRun,
  ctx: ToolContext,
  metrics: Metrics,
  made?: (result: Made) => Promise<void>,
): Promise<VerifiedResult> {
  const opening = performance.now();
  const inputs = await Promise.all(
    ctx.inputs.map(async (input, i) => {
      if (input.kind !== 'pdf') return input;
      const path = await openPdf(input.path, ctx.password, ctx, join(ctx.workdir, `plain-${i + 1}.pdf`));
      return { ...input, path, encrypted: path !== input.path, ...(path !== input.path && { upload: input.path }) };
    }),
  );
  // What the check will read of the inputs is read while the tool works; nothing runs on after the job.
  const reading = readInputsAhead({ tool, inputs, options: ctx.options, job: ctx });
  reading.catch(() => undefined);
  try {
    const began = performance.now();
    const result = await run({ ...ctx, inputs });
    const ran = performance.now();
    const kind = result.kind ?? outputKind(tool, ctx.options);
    const { checking: _, ...offered } = result;
    // Sent on while it is checked, to a caller that takes the verdict after it.
    const sending = made?.({ ...offered, kind, timing: { open: began - opening, tool: ran - began } });
    const verifying = verifyCounted(
      {
        tool,
        inputs,
        options: ctx.options,
        result: { path: result.path, kind, streamsChecked: result.streamsChecked },
        job: ctx,
      },
      tool.id,
      { metrics, log: ctx.log },
    );
    // All are waited for, so none runs on once the call has failed; the tool's own failure comes first.
    const [checked, own, sent] = await Promise.allSettled([verifying, result.checking, sending]);
    if (own.status === 'rejected') throw own.reason;
    if (checked.status === 'rejected') throw checked.reason;
    if (sent.status === 'rejected') throw sent.reason;
    const timing = { open: began - opening, tool: ran - began, verify: performance.now() - ran };
    return { ...offered, kind, properties: { ...result.properties, checks: checked.value }, timing };
  } finally {
    await reading.catch(() => undefined);
  }
}

/** Starts a service on its port (setting `PORT`, else the catalog's) and stops it cleanly on a signal. */
export function startService(opts: ServiceOptions & { onClose?: () => Promise<void> }): void {
  const app = createServiceApp(opts);
  const { port, host } = readServiceConfig(opts.name);
  const server = app.listen(port, host, () => {
    console.log(JSON.stringify({ level: 'info', service: opts.name, message: `listening on ${host}:${port}` }));
  });
  server.requestTimeout = 0; // jobs have their own timeout
  const stop = () => {
    server.close(() => void (opts.onClose?.() ?? Promise.resolve()).finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
