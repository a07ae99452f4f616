/**
 * Runs the whole stack (nginx, gateway, services) once for the contract tests, on ports of its own
 * (public 18080, gateway 13100, services 13101...) so that a running `npm start` is left alone, with a
 * fresh data and work directory, a small upload limit and a short result lifetime. Its logs stay in
 * .run/test-stack/logs after the run. Tests read the addresses with `inject('baseUrl')` and
 * `inject('gatewayUrl')`.
 */
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import type { ServiceName } from '@quire/catalog';
import { repoRoot, startStack } from '../../scripts/stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The public address, through nginx. */
    baseUrl: string;
    gatewayUrl: string;
    /** The services that were started, straight (no nginx, no gateway). */
    serviceUrls: Partial<Record<ServiceName, string>>;
    uploadLimitMb: number;
    resultTtlSeconds: number;
    rateLimitPerMinute: number;
  }
}

const uploadLimitMb = 5;
const resultTtlSeconds = 5;
/** The suite sends far more tool calls a minute than a person would: the limit stays on but out of reach. */
const rateLimitPerMinute = 100_000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runDir = join(repoRoot, '.run', 'test-stack');
  await rm(runDir, { recursive: true, force: true });
  const stack = await startStack({
    runDir,
    portOffset: 10_000,
    uploadLimitMb,
    env: { RESULT_TTL_SECONDS: String(resultTtlSeconds), RATE_LIMIT_PER_MINUTE: String(rateLimitPerMinute) },
  });
  project.provide('baseUrl', stack.url);
  project.provide('gatewayUrl', stack.gatewayUrl);
  project.provide('serviceUrls', stack.serviceUrls);
  project.provide('uploadLimitMb', uploadLimitMb);
  project.provide('resultTtlSeconds', resultTtlSeconds);
  project.provide('rateLimitPerMinute', rateLimitPerMinute);
  return async () => {
    await stack.stop();
  };
}
