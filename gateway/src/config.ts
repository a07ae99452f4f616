import { join } from 'node:path';
import { constants, services, type ServiceName } from '@quire/catalog';
import { envInt } from '@quire/service-kit';

export interface GatewayConfig {
  port: number;
  host: string;
  dataDir: string;
  resultsDir: string;
  resultTtlSeconds: number;
  /** Requests per minute per client on tool and workflow calls; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** How long the gateway waits for a service: the job's own limit plus a margin. */
  serviceTimeoutMs: number;
  serviceUrls: Partial<Record<ServiceName, string>>;
}

/** Settings from the environment, checked at boot so a bad one stops the gateway with a clear message. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  if (env.NODE_ENV === 'production' && env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error('FIREBASE_AUTH_EMULATOR_HOST must not be set in production: emulator tokens are unsigned.');
  }
  const dataDir = env.DATA_DIR || join(process.cwd(), '.run', 'data');
  const serviceUrls: Partial<Record<ServiceName, string>> = {};
  for (const [name, { urlSetting }] of Object.entries(services) as [ServiceName, (typeof services)[ServiceName]][]) {
    const url = env[urlSetting];
    if (!url) continue;
    if (!URL.canParse(url)) throw new Error(`Setting ${urlSetting} must be a URL, not "${url}"`);
    serviceUrls[name] = url.replace(/\/+$/, '');
  }
  return {
    port: envInt('PORT', 3100, env),
    host: env.HOST || '127.0.0.1',
    dataDir,
    resultsDir: env.RESULTS_DIR || join(dataDir, 'results'),
    resultTtlSeconds: envInt('RESULT_TTL_SECONDS', constants.resultTtlSeconds, env),
    rateLimitPerMinute: envInt('RATE_LIMIT_PER_MINUTE', 120, env),
    serviceTimeoutMs: envInt('JOB_TIMEOUT_MS', 120_000, env) + 30_000,
    serviceUrls,
  };
}
