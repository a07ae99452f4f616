import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { limitSettings, readSettings as readEnvironment, setting, type Env } from '@quire/base';
import type { EngineSettings } from './engine/engine.ts';

let engines = 0;

/** Every setting the office service reads besides the kit's, read once when it starts. */
export const officeSettings = {
  /** Warm LibreOffice listeners. */
  OFFICE_INSTANCES: setting.wholeNumber(availableParallelism(), 1),
  /** Jobs after which a listener is restarted; 0: never. */
  OFFICE_RESTART_AFTER: setting.wholeNumber(100),
  /** Longest one conversion may take before its listener is killed; default: the job's own limit. */
  OFFICE_JOB_TIMEOUT_MS: setting.optionalWholeNumber(1),
  JOB_TIMEOUT_MS: limitSettings.JOB_TIMEOUT_MS,
  /** Longest a listener may take to start. */
  OFFICE_START_TIMEOUT_MS: setting.wholeNumber(30_000, 1),
  SOFFICE_PATH: setting.text('soffice'),
  /** A Python that has `uno`. */
  OFFICE_PYTHON: setting.text('/usr/bin/python3'),
  /**
   * Where listener profiles and LibreOffice's temp files go: a fresh directory under it (default the
   * system temp directory), removed on shutdown.
   */
  OFFICE_PROFILE_DIR: setting.optionalText(),
  /** 0 skips loading each application once after a listener starts. */
  OFFICE_WARM_UP: setting.onUnlessZero(),
};

export function readSettings(env: Env = process.env): EngineSettings {
  const s = readEnvironment(officeSettings, env);
  return {
    instances: s.OFFICE_INSTANCES,
    restartAfter: s.OFFICE_RESTART_AFTER,
    jobTimeoutMs: s.OFFICE_JOB_TIMEOUT_MS ?? s.JOB_TIMEOUT_MS,
    startTimeoutMs: s.OFFICE_START_TIMEOUT_MS,
    soffice: s.SOFFICE_PATH,
    python: s.OFFICE_PYTHON,
    root: join(s.OFFICE_PROFILE_DIR ?? tmpdir(), `quire-office-${process.pid}-${++engines}`),
    warmUp: s.OFFICE_WARM_UP,
  };
}
