import type { ServerResponse } from 'node:http';
import client from 'prom-client';
import { ToolError, type Job, type Metrics } from '@quire/base';

/**
 * Runs at most `concurrency` jobs at once and lets at most `maxWaiting` wait; past that it answers
 * `busy` at once with a Retry-After, rather than letting requests pile up.
 */
export class JobQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    private readonly retryAfterSeconds = 5,
  ) {}

  get size(): number {
    return this.waiting.length;
  }

  get active(): number {
    return this.running;
  }

  async run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else await this.wait(signal);
    try {
      return await job();
    } finally {
      // A finished job hands its slot straight to the next in line, so none can jump the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private wait(signal?: AbortSignal): Promise<void> {
    if (this.waiting.length >= this.maxWaiting) {
      throw new ToolError('busy', undefined, { headers: { 'Retry-After': String(this.retryAfterSeconds) } });
    }
    return new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        const i = this.waiting.indexOf(go);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason instanceof ToolError ? signal.reason : new ToolError('timeout'));
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.waiting.push(go);
    });
  }
}

/** What a job may use: a queue to wait in (none: it starts at once) and the time it has once started. */
export interface JobLimits {
  queue?: JobQueue;
  timeoutMs: number;
}

/** How long a stopped job may take to wind down before its request is answered. */
const stopGraceMs = 5000;

/**
 * The one job pipeline of every route that works on an upload (the service kit's tools, the office service's
 * Gotenberg route, the gateway's calls): a place in the queue, then a deadline. The job's signal aborts
 * when the time is up or when the client goes away, and the job then has a moment to stop before the
 * caller answers, so that nothing writes into its work folder once that is removed.
 */
export async function runJob<T>(
  res: ServerResponse,
  workdir: string,
  limits: JobLimits,
  work: (job: Job) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  // The response's close, not the request's: the request has closed once its body was read.
  res.on('close', () => {
    if (!res.writableFinished) abort.abort(new ToolError('timeout', 'The request was cancelled.'));
  });
  const job = async () => {
    if (abort.signal.aborted) throw abort.signal.reason;
    const deadline = Date.now() + limits.timeoutMs;
    const timer = setTimeout(() => abort.abort(new ToolError('timeout')), limits.timeoutMs);
    try {
      const working = work({ workdir, signal: abort.signal, deadline });
      return await Promise.race([
        working,
        new Promise<never>((_, reject) =>
          abort.signal.addEventListener(
            'abort',
            () => void settled(working, stopGraceMs).then(() => reject(abort.signal.reason)),
            { once: true },
          ),
        ),
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
  return limits.queue ? limits.queue.run(job, abort.signal) : job();
}

/** Resolves when a promise settles either way, or after `ms`, whichever comes first. */
function settled(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    promise.then(
      () => (clearTimeout(timer), resolve()),
      () => (clearTimeout(timer), resolve()),
    );
  });
}

/** A service's queue, read at each scrape: how many jobs wait, and how many may. */
export function watchQueue(metrics: Metrics, queue: JobQueue): void {
  const registers = [metrics.registry];
  new client.Gauge({
    name: 'quire_queue_size',
    help: 'Jobs waiting for an engine',
    registers,
    collect() {
      this.set(queue.size);
    },
  });
  new client.Gauge({
    name: 'quire_queue_capacity',
    help: 'Jobs that may wait (QUEUE_MAX_WAITING); past that a call is answered busy',
    registers,
    collect() {
      this.set(queue.maxWaiting);
    },
  });
}
