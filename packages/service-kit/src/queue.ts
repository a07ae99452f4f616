import { ToolError } from './errors.ts';

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
