import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '@quire/base';
import { checkPublicUrl } from '@quire/http';
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

/**
 * Each call is a POST of the job as GET /api/v1/jobs/{id} shows it, signed in X-Quire-Signature. Its
 * address was checked when the job was made and is checked again now (its name may point elsewhere
 * since); redirects are not followed. A receiver that fails is logged, not retried.
 */
export function webhooks(secret: () => Promise<string>, log: Logger): Webhooks {
  const call = async (record: JobRecord, url: string) => {
    await checkPublicUrl(url);
    const body = JSON.stringify(publicView(record));
    const res = await fetch(url, {
      method: 'POST',
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(webhookTimeoutMs),
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Quire-Webhook',
        'X-Quire-Job': record.id,
        'X-Quire-Signature': signBody(await secret(), body),
      },
    });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`answered ${res.status}`);
  };
  return {
    notify(record) {
      const url = record.spec.webhook;
      if (!url) return;
      call(record, url).catch((err: unknown) =>
        log.warn('a job webhook failed', { job: record.id.slice(0, 6), err: String(err) }),
      );
    },
  };
}
