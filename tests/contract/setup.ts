/**
 * Runs the whole stack (nginx, gateway, services) once for the contract tests, on ports of its own
 * (public 18080, gateway 13100, services 13101...) so that a running `npm start` is left alone, with a
 * fresh data and work directory, a small upload limit and a short result lifetime. Its logs stay in
 * .run/test-stack/logs after the run. Tests read the addresses with `inject('baseUrl')` and
 * `inject('gatewayUrl')`. `stackSetup` makes the same for another project, on other ports.
 */
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import type { ServiceName } from '@quire/catalog';
import { repoRoot, startStack, type StackOptions } from '../../scripts/stack.ts';

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
    /** The gateway's and each service's process id, by name: to tell whether one was restarted. */
    stackPids: Record<string, number>;
    /** Where the gateway and the services keep their per-request work folders, one root each. */
    workDir: string;
  }
}

export interface StackSetup {
  /** The folder under .run for the stack's logs, data and work. */
  runName: string;
  /** See `testPortsBelow` in tests/lib/stack.ts. */
  portOffset: number;
  uploadLimitMb: number;
  resultTtlSeconds: number;
  authEmulator?: boolean;
}

/** A globalSetup that starts a stack with these settings and provides its addresses to the tests. */
export function stackSetup(s: StackSetup) {
  /** The suite sends far more tool calls a minute than a person would: the limit stays on but out of reach. */
  const rateLimitPerMinute = 100_000;
  return async function setup(project: TestProject): Promise<() => Promise<void>> {
    const runDir = join(repoRoot, '.run', s.runName);
    await rm(runDir, { recursive: true, force: true });
    const options: StackOptions = {
      runDir,
      portOffset: s.portOffset,
      uploadLimitMb: s.uploadLimitMb,
      env: { RESULT_TTL_SECONDS: String(s.resultTtlSeconds), RATE_LIMIT_PER_MINUTE: String(rateLimitPerMinute) },
    };
    if (s.authEmulator !== undefined) options.authEmulator = s.authEmulator;
    const stack = await startStack(options);
    project.provide('baseUrl', stack.url);
    project.provide('gatewayUrl', stack.gatewayUrl);
    project.provide('serviceUrls', stack.serviceUrls);
    project.provide('uploadLimitMb', s.uploadLimitMb);
    project.provide('resultTtlSeconds', s.resultTtlSeconds);
    project.provide('rateLimitPerMinute', rateLimitPerMinute);
    project.provide(
      'stackPids',
      Object.fromEntries(
        Object.entries(stack.instances).flatMap(([name, list]) =>
          list.map((i, k): [string, number] => [k ? `${name}-${k + 1}` : name, i.pid]),
        ),
      ),
    );
    project.provide('workDir', join(runDir, 'work'));
    return async () => {
      await stack.stop();
    };
  };
}

/**
 * Results live half a minute: long enough that a test downloads its result in time on a busy machine,
 * short enough for the test of their expiry to wait them out.
 */
export default stackSetup({ runName: 'test-stack', portOffset: 10_000, uploadLimitMb: 5, resultTtlSeconds: 30 });
