import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname } from 'node:path';
import type { Logger } from '@quire/base';
import { checkPublicUrl, publicLookup } from '@quire/http';
import { publicView, type JobRecord } from './records.ts';

/** How long a webhook's receiver has to answer. */
const webhookTimeoutMs = 10_000;

/** The signature a webhook's body carries: HMAC-SHA256 with the deployment's secret, in hex. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * The deployment's webhook secret: JOBS_WEBHOOK_SECRET, else one made once and kept in the data
 * directory (shared, as the job folders are, by every gateway and worker of the deployment).
 */
export async function webhookSecret(configured: string | null, file: string): Promise<string> {
  if (configured) return configured;
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const secret = randomBytes(32).toString('base64url');
    // Never overwrites one another process wrote meanwhile.
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(() => {});
    return (await readFile(file, 'utf8')).trim();
  }
}

export interface Webhooks {
  /** Calls an ended job's webhook, if it has one, in the background. */
  notify(record: JobRecord): void;
}

/** Waits before each new try of a webhook whose receiver failed: about six minutes in all. */
export const webhookRetryDelaysMs = [10_000, 60_000, 300_000];

/** A receiver's answer worth trying again: it was busy, timed out or failed on its side. */
const transient = (status: number) => status === 408 || status === 429 || status >= 500;

class ReceiverError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/**
 * Each call is a POST of the job as GET /api/v1/jobs/{id} shows it, signed in X-Quire-Signature. Its
 * address was checked when the job was made, and every connection checks again what its name resolves
 * to (it may point elsewhere since); redirects are not followed. A receiver that cannot be reached, or
 * answers 408, 429 or 5xx, is tried again after each of `retryDelaysMs`; other answers end the tries.
 * Tries still waiting when the process stops are lost.
 */
export function webhooks(secret: () => Promise<string>, log: Logger, retryDelaysMs = webhookRetryDelaysMs): Webhooks {
  const attempt = async (record: JobRecord, url: string, tried: number): Promise<void> => {
    try {
      const target = await checkPublicUrl(url);
      const body = JSON.stringify(publicView(record));
      await post(target, body, {
        'User-Agent': 'Quire-Webhook',
        'X-Quire-Job': record.id,
        'X-Quire-Signature': signBody(await secret(), body),
      });
    } catch (err) {
      const retry = !(err instanceof ReceiverError) || err.retry;
      const delay = retry ? retryDelaysMs[tried] : undefined;
      log.warn('a job webhook failed', {
        job: record.id.slice(0, 6),
        err: String(err),
        ...(delay !== undefined ? { retryInMs: delay } : { gaveUp: true }),
      });
      if (delay !== undefined) setTimeout(() => void attempt(record, url, tried + 1), delay).unref();
    }
  };
  return {
    notify(record) {
      const url = record.spec.webhook;
      if (url) void attempt(record, url, 0);
    },
  };
}

/** POSTs JSON to a public address, connecting only to what its name resolves to now if that is public. */
function post(url: URL, body: string, headers: Record<string, string>): Promise<void> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'POST',
      lookup: publicLookup,
      timeout: webhookTimeoutMs,
      headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in ${webhookTimeoutMs} ms`)));
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) resolve();
      else reject(new ReceiverError(`answered ${status}`, transient(status)));
    });
    req.end(body);
  });
}
