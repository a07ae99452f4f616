import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { FileKind } from '@quire/catalog';
import { orUnavailable } from '../results-redis.ts';

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

const finalStates: readonly JobState[] = ['done', 'failed', 'cancelled'];

export function isFinal(state: JobState): boolean {
  return finalStates.includes(state);
}

/** One file's outcome in a batch, as the report says it. */
export interface FileReport {
  file: string;
  outcome: 'ok' | 'failed';
  /** The result's name inside the zip, when it succeeded. */
  result?: string;
  error?: { code: string; message: string };
  /** What the result was checked for (the tool's properties), when it succeeded. */
  checks?: Record<string, unknown>;
}

/** Where one file of a batch is: waiting its turn, under way, or ended. */
export type FileState = 'queued' | 'processing' | 'done' | 'failed';

/** One file of a batch as it goes, in the order sent. */
export interface FileProgress {
  file: string;
  state: FileState;
  /** Its pages, when it is a PDF whose pages could be counted. */
  pages?: number;
  /** Why it failed (as the report says, once the batch ends). */
  error?: { code: string; message: string };
}

export interface JobProgress {
  files: { done: number; total: number };
  /** A batch's files, each with its own state. */
  perFile?: FileProgress[];
  /** Pages of the PDFs given, for the tools that work page by page (OCR, rendering), when they were counted. */
  pages?: { done: number; total: number };
  /** A workflow's steps, for one file (a batch counts its files). */
  steps?: { done: number; total: number };
}

export interface JobResult {
  /** The stored result's name, downloaded from /uploads/{name}. */
  download: string;
  properties?: Record<string, unknown>;
  /** A batch's per-file report (also in the zip, as report.json). */
  report?: FileReport[];
}

/** What the worker needs to run a job; never shown to the client. */
export interface JobSpec {
  /** The chain's tool ids, in order. */
  steps: string[];
  /** Each uploaded file, in the job's folder. */
  inputs: {
    file: string;
    name: string;
    /** What it is; none when the batch's check refused it (`error`). */
    kind?: FileKind;
    pages?: number;
    error?: { code: string; message: string };
  }[];
  fields: Record<string, string>;
  /** Each step's options, from a saved workflow. */
  stepFields?: Record<string, string>[];
  batch: boolean;
  /** How long the job may run once started. */
  timeoutMs: number;
  /** Who may see it beyond whoever holds its id: a signed-in owner's uid. */
  owner?: string;
  /** Whom its place counts against in the per-client bound. */
  client: string;
  webhook?: string;
  requestId: string;
}

export interface JobRecord {
  id: string;
  state: JobState;
  /** The tool's id, or `workflow`. */
  tool: string;
  steps: string[];
  createdAt: string;
  startedAt?: string;
  endedAt?: string;
  progress: JobProgress;
  result?: JobResult;
  error?: { code: string; message: string };
  spec: JobSpec;
}

/** A record as its holder sees it: everything but the worker's spec. */
export function publicView(record: JobRecord): Omit<JobRecord, 'spec'> {
  const { spec: _spec, ...rest } = record;
  return rest;
}

export type RecordListener = (record: JobRecord) => void;

/**
 * Where jobs' records live and how their changes are heard: Redis (shared by every gateway and worker)
 * or memory (one process). A record in a final state never changes again: `update` refuses it, so a
 * cancel and a finish cannot both win.
 */
export interface RecordStore {
  create(record: JobRecord, ttlMs: number): Promise<void>;
  get(id: string): Promise<JobRecord | undefined>;
  /** Applies `patch` unless the record is gone or final; the new record, or undefined when refused. */
  update(id: string, patch: Partial<JobRecord>, ttlMs: number): Promise<JobRecord | undefined>;
  /** Calls `listener` with every later change of the job; returns what stops it. */
  watch(id: string, listener: RecordListener): Promise<() => void>;
  /** Notes a job against a client; returns the ids noted for it that may still be live. */
  noteClientJob(client: string, id: string, ttlMs: number): Promise<string[]>;
  close(): Promise<void>;
}

/** A record changed; once it ends, its fields (a password among them) are not kept. */
function patched(record: JobRecord, patch: Partial<JobRecord>): JobRecord {
  const next = { ...record, ...patch };
  return isFinal(next.state) ? { ...next, spec: { ...next.spec, fields: {} } } : next;
}

/** Records in one process: the fallback without Redis, and the unit tests'. */
export class MemoryRecordStore implements RecordStore {
  private readonly records = new Map<string, { record: JobRecord; expires: number }>();
  private readonly clients = new Map<string, Map<string, number>>();
  private readonly events = new EventEmitter().setMaxListeners(0);

  async create(record: JobRecord, ttlMs: number): Promise<void> {
    this.records.set(record.id, { record, expires: Date.now() + ttlMs });
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const held = this.records.get(id);
    if (!held) return undefined;
    if (held.expires < Date.now()) {
      this.records.delete(id);
      return undefined;
    }
    return held.record;
  }

  async update(id: string, patch: Partial<JobRecord>, ttlMs: number): Promise<JobRecord | undefined> {
    const current = await this.get(id);
    if (!current || isFinal(current.state)) return undefined;
    const record = patched(current, patch);
    this.records.set(id, { record, expires: Date.now() + ttlMs });
    this.events.emit(id, record);
    return record;
  }

  async watch(id: string, listener: RecordListener): Promise<() => void> {
    this.events.on(id, listener);
    return () => this.events.off(id, listener);
  }

  async noteClientJob(client: string, id: string, ttlMs: number): Promise<string[]> {
    const now = Date.now();
    const jobs = this.clients.get(client) ?? new Map<string, number>();
    for (const [job, expires] of jobs) if (expires < now) jobs.delete(job);
    jobs.set(id, now + ttlMs);
    this.clients.set(client, jobs);
    return [...jobs.keys()];
  }

  async close(): Promise<void> {
    this.events.removeAllListeners();
  }
}

const recordKey = (id: string) => `quire:job:${id}`;
const clientKey = (client: string) => `quire:client-jobs:${client}`;
const channel = 'quire:job-updates';
const unavailable = 'Jobs cannot be made or read right now. Please try again in a moment.';

/**
 * In one step: the record is replaced (and the change announced) only when it exists and is not final.
 * Only its worker changes a live record, one change at a time; the one other change, a cancel, is final.
 */
const updateScript = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local state = cjson.decode(current).state
if state == 'done' or state == 'failed' or state == 'cancelled' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[1])
return 1
`;

/** Records in Redis, their changes announced on one channel that every process listens to. */
export class RedisRecordStore implements RecordStore {
  private readonly redis: Redis;
  private subscriber: Redis | undefined;
  private readonly events = new EventEmitter().setMaxListeners(0);

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, commandTimeout: 10_000 });
    this.redis.on('error', () => {});
  }

  async create(record: JobRecord, ttlMs: number): Promise<void> {
    await orUnavailable(() => this.redis.set(recordKey(record.id), JSON.stringify(record), 'PX', ttlMs), unavailable);
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const text = await orUnavailable(() => this.redis.get(recordKey(id)), unavailable);
    return text ? (JSON.parse(text) as JobRecord) : undefined;
  }

  async update(id: string, patch: Partial<JobRecord>, ttlMs: number): Promise<JobRecord | undefined> {
    const current = await this.get(id);
    if (!current || isFinal(current.state)) return undefined;
    const record = patched(current, patch);
    const text = JSON.stringify(record);
    const done = await orUnavailable(
      () => this.redis.eval(updateScript, 1, recordKey(id), text, String(ttlMs), channel),
      unavailable,
    );
    return done === 1 ? record : undefined;
  }

  async watch(id: string, listener: RecordListener): Promise<() => void> {
    if (!this.subscriber) {
      const subscriber = this.redis.duplicate();
      subscriber.on('error', () => {});
      subscriber.on('message', (_channel: string, text: string) => {
        const record = JSON.parse(text) as JobRecord;
        this.events.emit(record.id, record);
      });
      this.subscriber = subscriber;
      await subscriber.subscribe(channel);
    }
    this.events.on(id, listener);
    return () => this.events.off(id, listener);
  }

  async noteClientJob(client: string, id: string, ttlMs: number): Promise<string[]> {
    const key = clientKey(client);
    const now = Date.now();
    const [, , ids] = (await orUnavailable(
      () =>
        this.redis
          .multi()
          .zremrangebyscore(key, '-inf', now)
          .zadd(key, now + ttlMs, id)
          .zrange(key, 0, -1)
          .pexpire(key, ttlMs)
          .exec(),
      unavailable,
    ))!.map(([err, value]) => {
      if (err) throw err;
      return value;
    }) as [unknown, unknown, string[]];
    return ids;
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
    this.redis.disconnect();
  }
}
