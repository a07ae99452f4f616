import { Queue, Worker } from 'bullmq';
import type { Logger } from '@quire/base';
import { orUnavailable } from '../results-redis.ts';

/** Runs one job by its id; it records its own outcome and throws only when something is badly wrong. */
export type Processor = (id: string) => Promise<void>;

/** A job given up by the queue itself (its worker went away twice, or its processor threw): why. */
export type GivenUp = (id: string, reason: string) => void;

/**
 * The queue jobs wait in until a worker takes them: BullMQ on Redis, shared by every gateway and worker,
 * or a queue in this process when there is no Redis (a single dev process, the unit tests).
 */
export interface Dispatch {
  add(id: string): Promise<void>;
  /** Takes jobs in this process, `concurrency` at a time. */
  work(processor: Processor, concurrency: number, givenUp: GivenUp): void;
  /** Drops a job that waits, once cancelled; a running one is stopped by its worker. */
  drop(id: string): Promise<void>;
  /** Jobs waiting for a worker, and jobs running. */
  depth(): Promise<{ waiting: number; active: number }>;
  close(): Promise<void>;
}

const queueName = 'quire-jobs';

/** A job is kept in the queue's own books this long once it has ended; its record is what clients read. */
const keptSeconds = 24 * 3600;

export class BullDispatch implements Dispatch {
  private readonly queue: Queue;
  private worker: Worker | undefined;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
    /** How long a worker's hold on a job lasts unless renewed, and how often holds are checked: BullMQ's by default. */
    private readonly timing: { lockDuration?: number; stalledInterval?: number } = {},
  ) {
    this.queue = new Queue(queueName, { connection: { url, maxRetriesPerRequest: 2 }, prefix: 'quire' });
    this.queue.on('error', (err) => log.warn('job queue: Redis error', { err: err.message }));
  }

  async add(id: string): Promise<void> {
    const options = {
      jobId: id,
      attempts: 1,
      removeOnComplete: { age: keptSeconds },
      removeOnFail: { age: keptSeconds },
    };
    await orUnavailable(
      () => this.queue.add('job', {}, options),
      'Jobs cannot be queued right now. Please try again in a moment.',
    );
  }

  work(processor: Processor, concurrency: number, givenUp: GivenUp): void {
    // A worker that dies mid-job leaves its lock to expire: the job is taken again once (maxStalledCount),
    // and failed by the queue the second time.
    this.worker = new Worker(queueName, async (job) => processor(job.id!), {
      connection: { url: this.url, maxRetriesPerRequest: null },
      prefix: 'quire',
      concurrency,
      maxStalledCount: 1,
      ...this.timing,
    });
    this.worker.on('failed', (job, err) => {
      if (job?.id) givenUp(job.id, err.message);
    });
    this.worker.on('error', (err) => this.log.warn('job worker: Redis error', { err: err.message }));
  }

  async drop(id: string): Promise<void> {
    const job = await this.queue.getJob(id);
    if (job && (await job.isWaiting())) await job.remove().catch(() => {});
  }

  async depth(): Promise<{ waiting: number; active: number }> {
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0),
      active: counts.active ?? 0,
    };
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}

/** The queue of one process: jobs are lost when it stops. */
export class MemoryDispatch implements Dispatch {
  private readonly waiting: string[] = [];
  private active = 0;
  private taker: { processor: Processor; concurrency: number; givenUp: GivenUp } | undefined;

  async add(id: string): Promise<void> {
    this.waiting.push(id);
    this.pump();
  }

  work(processor: Processor, concurrency: number, givenUp: GivenUp): void {
    this.taker = { processor, concurrency, givenUp };
    this.pump();
  }

  async drop(id: string): Promise<void> {
    const i = this.waiting.indexOf(id);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  async depth(): Promise<{ waiting: number; active: number }> {
    return { waiting: this.waiting.length, active: this.active };
  }

  async close(): Promise<void> {
    this.taker = undefined;
  }

  private pump(): void {
    const taker = this.taker;
    while (taker && this.active < taker.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      this.active++;
      void taker
        .processor(id)
        .catch((err: unknown) => taker.givenUp(id, err instanceof Error ? err.message : String(err)))
        .finally(() => {
          this.active--;
          this.pump();
        });
    }
  }
}
