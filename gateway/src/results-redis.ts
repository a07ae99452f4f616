import { Readable } from 'node:stream';
import { Redis } from 'ioredis';
import { ToolError, type Logger } from '@quire/base';
import { isResultName, newResultName, readableNameOf, type ResultStore, type StoredResult } from './results.ts';

/** Results go in and out in pieces of this size: a result is never whole in a gateway's memory. */
const chunkBytes = 1024 * 1024;
/** A result is written under a key of its own until it is whole; this bounds what a crash mid-write leaves. */
const partialTtlMs = 10 * 60_000;
const resultKey = (name: string) => `quire:result:${name}`;
const partialKey = (name: string) => `quire:partial:${name}`;
/** Every result's name, scored by when it expires: what sweep counts. */
const indexKey = 'quire:results';

const unavailable = 'Results cannot be stored or fetched right now. Please try again in a moment.';

/** Results in Redis, shared by every gateway; Redis deletes each when its time is up. */
export class RedisResultStore implements ResultStore {
  private readonly redis: Redis;
  private down = false;

  constructor(
    url: string,
    readonly ttlMs: number,
    log?: Logger,
  ) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      // While Redis is away, calls fail at once with a clean error instead of waiting in a queue;
      // reconnecting goes on in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 10_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // Once per outage, without the URL (it may hold a password).
    this.redis.on('error', (err: Error) => {
      if (!this.down) log?.warn('Redis is unreachable; results cannot be stored or fetched', { err: err.message });
      this.down = true;
    });
    this.redis.on('ready', () => {
      if (this.down) log?.info('Redis is reachable again');
      this.down = false;
    });
  }

  async init(): Promise<void> {
    try {
      await this.redis.connect();
    } catch (err) {
      this.redis.disconnect();
      throw new Error(`Redis (REDIS_URL) did not answer: ${(err as Error).message}`, { cause: err });
    }
  }

  async saveStream(from: Readable, readableName: string): Promise<string> {
    let partial: string | undefined;
    try {
      const name = newResultName(readableName);
      partial = partialKey(name);
      const key = partial;
      await this.call(() => this.redis.set(key, '', 'PX', partialTtlMs));
      // Each piece is written as it is whole; the stream waits meanwhile, so a piece is all that is held.
      for await (const piece of pieces(from, chunkBytes)) await this.call(() => this.redis.append(key, piece));
      const expiresAt = Date.now() + this.ttlMs;
      // In one step: the result appears whole under its name, with its lifetime, and in the index.
      await this.call(async () =>
        replies(
          await this.redis
            .multi()
            .rename(key, resultKey(name))
            .pexpireat(resultKey(name), expiresAt)
            .zadd(indexKey, expiresAt, name)
            .exec(),
        ),
      );
      return name;
    } catch (err) {
      from.destroy();
      // Its own expiry removes it when Redis cannot be told now.
      if (partial) await this.redis.del(partial).catch(() => {});
      throw err;
    }
  }

  async find(name: string): Promise<StoredResult | undefined> {
    if (!isResultName(name)) return undefined;
    const key = resultKey(name);
    const [exists, size] = (await this.call(async () =>
      replies(await this.redis.multi().exists(key).strlen(key).exec()),
    )) as [number, number];
    if (!exists) return undefined;
    const open: StoredResult['open'] = (range) =>
      Readable.from(this.chunks(key, range?.start ?? 0, range?.end ?? size));
    return { readableName: readableNameOf(name), size, open };
  }

  async sweep(): Promise<number> {
    const [, left] = await this.call(async () =>
      replies(await this.redis.multi().zremrangebyscore(indexKey, '-inf', Date.now()).zcard(indexKey).exec()),
    );
    return Number(left);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private async *chunks(key: string, start: number, stop: number): AsyncGenerator<Buffer> {
    for (let at = start; at < stop; at += chunkBytes) {
      const end = Math.min(at + chunkBytes, stop);
      const part = await this.redis.getrangeBuffer(key, at, end - 1);
      // Expired while being sent: the download breaks off rather than end short.
      if (part.length !== end - at) throw new Error('the result expired while it was being sent');
      yield part;
    }
  }

  private call<T>(command: () => Promise<T>): Promise<T> {
    return orUnavailable(command, unavailable);
  }
}

/** A Redis call whose failure is the contract's `not_available` (with `message`), not a crash or a hang. */
export async function orUnavailable<T>(command: () => Promise<T>, message: string): Promise<T> {
  try {
    return await command();
  } catch (err) {
    throw new ToolError('not_available', message, { cause: err });
  }
}

/** A stream's bytes in pieces of at least `size` bytes (the last one aside), as they arrive. */
async function* pieces(from: Readable, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let length = 0;
  for await (const chunk of from as AsyncIterable<Buffer>) {
    held.push(chunk);
    length += chunk.length;
    if (length >= size) {
      yield Buffer.concat(held, length);
      held = [];
      length = 0;
    }
  }
  if (length > 0) yield Buffer.concat(held, length);
}

/** A transaction's replies; it fails as a whole when one of its commands failed. */
function replies(rs: [Error | null, unknown][] | null): unknown[] {
  if (!rs) throw new Error('the transaction was aborted');
  for (const [err] of rs) if (err) throw err;
  return rs.map(([, value]) => value);
}
