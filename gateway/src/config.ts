import { join } from 'node:path';
import { z } from 'zod';
import { constants, services, type ServiceName } from '@quire/catalog';
import {
  defaults,
  limitSettings,
  logSettings,
  rateLimitSettings,
  readSettings,
  setting,
  signInOf,
  signInSettings,
  type Env,
  type SettingsOf,
  type SignIn,
} from '@quire/base';

export interface GatewayConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Where the site's data lives: PostgreSQL when DATABASE_URL is set, else a SQLite file in dataDir. */
  database: { url: string } | { file: string };
  resultsDir: string;
  /** Results in Redis (REDIS_URL), shared by every gateway; none: files in resultsDir. */
  redisUrl: string | null;
  resultTtlSeconds: number;
  /** The one upload limit (UPLOAD_LIMIT_MB), in bytes. */
  uploadLimitBytes: number;
  /** Requests per minute per client on tool and workflow calls; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** How long the gateway waits for a service: the job's own limit plus a margin. */
  serviceTimeoutMs: number;
  /** Each service's instances (a comma-separated setting), tried in turn when one refuses the connection. */
  serviceUrls: Partial<Record<ServiceName, string[]>>;
  /** Where contact messages are also sent by e-mail (SMTP_URL, CONTACT_TO, MAIL_FROM); none: only stored. */
  smtp: { url: string; to: string; from: string } | null;
  /** Firebase Authentication: the project whose ID tokens are accepted, and the web config the site reads. */
  firebase: FirebaseSettings;
  jobs: JobsConfig;
}

/** Jobs (POST /api/v1/jobs): their queue, their workers and their bounds. */
export interface JobsConfig {
  /** What this process does: answers the API (`gateway`), runs jobs (`worker`), or both. */
  role: 'gateway' | 'worker' | 'both';
  /** The queue's Redis (QUEUE_REDIS_URL, else REDIS_URL); none: a queue in this process, lost when it stops. */
  redisUrl: string | null;
  /** Jobs this process runs at once. */
  concurrency: number;
  /** Jobs one client may have queued or running; beyond: 429 busy. */
  perClient: number;
  /** The longest deadline a job may be given, however big. */
  maxMs: number;
  /** A job's deadline per page of PDF it is given, when that is more than its per-file share. */
  pageMs: number;
  /** The uploads' folders, shared by every gateway and worker. */
  dir: string;
  /** The key webhook calls are signed with; none: one made once and kept in the data directory. */
  webhookSecret: string | null;
}

export type FirebaseSettings = SignIn;

/** Past the job's own limit, time for the upload to the service, its check of the result and the answer. */
const serviceMarginMs = 30_000;

/** A comma-separated list of addresses, without trailing slashes. */
const urlList = setting.optionalText().transform((raw, ctx) => {
  const urls = (raw ?? '').split(',').map((u) => u.trim());
  if (urls.join('') === '') return undefined;
  const bad = urls.find((url) => !URL.canParse(url));
  if (bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: `must be a URL or a comma-separated list of URLs, not "${bad}"` });
    return z.NEVER;
  }
  return urls.map((url) => url.replace(/\/+$/, ''));
});

/** Every setting the gateway reads. */
export const gatewaySettings = {
  ...logSettings,
  PORT: setting.port(defaults.gatewayPort),
  HOST: setting.text(defaults.host),
  DATA_DIR: setting.optionalText(),
  DATABASE_URL: setting.address(['postgres:', 'postgresql:'], 'a postgres:// connection string'),
  RESULTS_DIR: setting.optionalText(),
  REDIS_URL: setting.address(['redis:', 'rediss:'], 'a redis:// or rediss:// address, such as redis://127.0.0.1:6379'),
  RESULT_TTL_SECONDS: setting.wholeNumber(constants.resultTtlSeconds, 1),
  ...rateLimitSettings,
  ...limitSettings,
  SMTP_URL: setting.address(
    ['smtp:', 'smtps:'],
    'an smtp:// or smtps:// address, such as smtps://user:pass@mail.example:465',
  ),
  CONTACT_TO: setting.optionalText(),
  MAIL_FROM: setting.optionalText(),
  ...signInSettings,
  JOBS_ROLE: setting.oneOf(['gateway', 'worker', 'both']),
  QUEUE_REDIS_URL: setting.address(['redis:', 'rediss:'], 'a redis:// or rediss:// address'),
  JOBS_CONCURRENCY: setting.wholeNumber(2, 1),
  JOBS_PER_CLIENT: setting.wholeNumber(5, 1),
  JOBS_PAGE_MS: setting.wholeNumber(2000, 0),
  JOBS_DIR: setting.optionalText(),
  JOBS_WEBHOOK_SECRET: setting.optionalText(),
  ...(Object.fromEntries(Object.values(services).map((s) => [s.urlSetting, urlList])) as Record<
    (typeof services)[ServiceName]['urlSetting'],
    typeof urlList
  >),
};

/** Settings from the environment, checked at boot so a bad one stops the gateway with a clear message. */
export function readConfig(env: Env = process.env): GatewayConfig {
  const s = readSettings(gatewaySettings, env);
  if (s.NODE_ENV === 'production' && s.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error('FIREBASE_AUTH_EMULATOR_HOST must not be set in production: emulator tokens are unsigned.');
  }
  const serviceUrls: Partial<Record<ServiceName, string[]>> = {};
  for (const [name, { urlSetting }] of Object.entries(services) as [ServiceName, (typeof services)[ServiceName]][]) {
    const urls = s[urlSetting];
    if (!urls) continue;
    serviceUrls[name] = urls;
  }
  const dataDir = s.DATA_DIR ?? join(process.cwd(), '.run', 'data');
  return {
    port: s.PORT,
    host: s.HOST,
    dataDir,
    database: s.DATABASE_URL ? { url: s.DATABASE_URL } : { file: join(dataDir, 'quire.db') },
    resultsDir: s.RESULTS_DIR ?? join(dataDir, 'results'),
    redisUrl: s.REDIS_URL ?? null,
    resultTtlSeconds: s.RESULT_TTL_SECONDS,
    uploadLimitBytes: s.UPLOAD_LIMIT_MB * 1024 * 1024,
    rateLimitPerMinute: s.RATE_LIMIT_PER_MINUTE,
    serviceTimeoutMs: s.JOB_TIMEOUT_MS + serviceMarginMs,
    serviceUrls,
    smtp: smtpOf(s),
    firebase: signInOf(s),
    jobs: {
      role: s.JOBS_ROLE ?? 'both',
      redisUrl: s.QUEUE_REDIS_URL ?? s.REDIS_URL ?? null,
      concurrency: s.JOBS_CONCURRENCY,
      perClient: s.JOBS_PER_CLIENT,
      maxMs: s.JOBS_MAX_SECONDS * 1000,
      pageMs: s.JOBS_PAGE_MS,
      dir: s.JOBS_DIR ?? join(dataDir, 'jobs'),
      webhookSecret: s.JOBS_WEBHOOK_SECRET ?? null,
    },
  };
}

function smtpOf(s: SettingsOf<typeof gatewaySettings>): GatewayConfig['smtp'] {
  if (!s.SMTP_URL) return null;
  const to = s.CONTACT_TO;
  if (!to || !/^[^@\s]+@[^@\s]+$/.test(to))
    throw new Error('Setting CONTACT_TO must be the e-mail address that receives contact messages.');
  return { url: s.SMTP_URL, to, from: s.MAIL_FROM ?? `Quire <${to}>` };
}
