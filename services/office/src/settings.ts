import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { envInt } from '@quire/service-kit';
import type { EngineSettings } from './engine/engine.ts';

let engines = 0;

/**
 * The office service's settings, read from the environment and checked at boot:
 * - OFFICE_INSTANCES: warm LibreOffice listeners (default: the number of cores);
 * - OFFICE_RESTART_AFTER: jobs after which a listener is restarted (default 100; 0 never);
 * - OFFICE_JOB_TIMEOUT_MS: longest one conversion may take before its listener is killed
 *   (default JOB_TIMEOUT_MS, else 120 s);
 * - OFFICE_START_TIMEOUT_MS: longest a listener may take to start (default 30 s);
 * - SOFFICE_PATH (default `soffice`), OFFICE_PYTHON (default `/usr/bin/python3`, which has `uno`);
 * - OFFICE_PROFILE_DIR: where listener profiles and LibreOffice's temp files go (default a fresh
 *   directory under the system temp directory, removed on shutdown);
 * - OFFICE_WARM_UP=0 skips loading each application once after a listener starts.
 */
export function readSettings(env: NodeJS.ProcessEnv = process.env): EngineSettings {
  const instances = envInt('OFFICE_INSTANCES', availableParallelism(), env);
  if (instances < 1) throw new Error('Setting OFFICE_INSTANCES must be at least 1');
  return {
    instances,
    restartAfter: envInt('OFFICE_RESTART_AFTER', 100, env),
    jobTimeoutMs: envInt('OFFICE_JOB_TIMEOUT_MS', envInt('JOB_TIMEOUT_MS', 120_000, env), env),
    startTimeoutMs: envInt('OFFICE_START_TIMEOUT_MS', 30_000, env),
    soffice: env.SOFFICE_PATH || 'soffice',
    python: env.OFFICE_PYTHON || '/usr/bin/python3',
    root: join(env.OFFICE_PROFILE_DIR || tmpdir(), `quire-office-${process.pid}-${++engines}`),
    warmUp: env.OFFICE_WARM_UP !== '0',
  };
}
