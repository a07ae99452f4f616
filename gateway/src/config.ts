import { join } from 'node:path';
import { constants, services, type ServiceName } from '@quire/catalog';
import { envInt, uploadLimitBytes } from '@quire/service-kit';

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
}

export interface FirebaseSettings {
  projectId: string;
  apiKey: string;
  authDomain: string;
  /** `host:port` of the Auth emulator (local runs and tests only; refused in production). */
  emulatorHost: string | null;
}

/** Settings from the environment, checked at boot so a bad one stops the gateway with a clear message. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  if (env.NODE_ENV === 'production' && env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error('FIREBASE_AUTH_EMULATOR_HOST must not be set in production: emulator tokens are unsigned.');
  }
  const projectId = env.FIREBASE_PROJECT_ID || 'demo-quire';
  const dataDir = env.DATA_DIR || join(process.cwd(), '.run', 'data');
  const serviceUrls: Partial<Record<ServiceName, string[]>> = {};
  for (const [name, { urlSetting }] of Object.entries(services) as [ServiceName, (typeof services)[ServiceName]][]) {
    const urls = (env[urlSetting] ?? '').split(',').map((u) => u.trim());
    if (urls.join('') === '') continue;
    for (const url of urls) {
      if (!URL.canParse(url))
        throw new Error(`Setting ${urlSetting} must be a URL or a comma-separated list of URLs, not "${url}"`);
    }
    // chromiumly keeps one Gotenberg address per process: several office instances go behind one address.
    if (name === 'office' && urls.length > 1) throw new Error(`Setting ${urlSetting} takes one URL.`);
    serviceUrls[name] = urls.map((url) => url.replace(/\/+$/, ''));
  }
  return {
    port: envInt('PORT', 3100, env),
    host: env.HOST || '127.0.0.1',
    dataDir,
    database: databaseOf(env, dataDir),
    resultsDir: env.RESULTS_DIR || join(dataDir, 'results'),
    redisUrl: redisUrlOf(env),
    resultTtlSeconds: envInt('RESULT_TTL_SECONDS', constants.resultTtlSeconds, env),
    uploadLimitBytes: uploadLimitBytes(env),
    rateLimitPerMinute: envInt('RATE_LIMIT_PER_MINUTE', constants.rateLimitPerMinute, env),
    serviceTimeoutMs: envInt('JOB_TIMEOUT_MS', 120_000, env) + 30_000,
    serviceUrls,
    smtp: smtpOf(env),
    firebase: {
      projectId,
      apiKey: env.FIREBASE_API_KEY || '',
      // Every Firebase project has this one; a custom domain is set with FIREBASE_AUTH_DOMAIN.
      authDomain: env.FIREBASE_AUTH_DOMAIN || `${projectId}.firebaseapp.com`,
      emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST || null,
    },
  };
}

function databaseOf(env: NodeJS.ProcessEnv, dataDir: string): GatewayConfig['database'] {
  const url = env.DATABASE_URL;
  if (!url) return { file: join(dataDir, 'quire.db') };
  if (!/^postgres(ql)?:\/\//.test(url) || !URL.canParse(url)) {
    throw new Error('Setting DATABASE_URL must be a postgres:// connection string.');
  }
  return { url };
}

function redisUrlOf(env: NodeJS.ProcessEnv): string | null {
  const url = env.REDIS_URL;
  if (!url) return null;
  if (!/^rediss?:\/\//.test(url) || !URL.canParse(url)) {
    throw new Error('Setting REDIS_URL must be a redis:// or rediss:// address, such as redis://127.0.0.1:6379.');
  }
  return url;
}

function smtpOf(env: NodeJS.ProcessEnv): GatewayConfig['smtp'] {
  const url = env.SMTP_URL;
  if (!url) return null;
  if (!/^smtps?:\/\//.test(url) || !URL.canParse(url)) {
    throw new Error(
      'Setting SMTP_URL must be an smtp:// or smtps:// address, such as smtps://user:pass@mail.example:465.',
    );
  }
  const to = env.CONTACT_TO;
  if (!to || !/^[^@\s]+@[^@\s]+$/.test(to))
    throw new Error('Setting CONTACT_TO must be the e-mail address that receives contact messages.');
  return { url, to, from: env.MAIL_FROM || `Quire <${to}>` };
}
