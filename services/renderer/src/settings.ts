import { readSettings as readEnvironment, setting, type Env } from '@quire/base';
import { chromiumPath } from './chromium.ts';

/** What the renderer can be told through its environment; every field has a safe default. */
export interface RendererSettings {
  /** Debian's Chromium; never a browser downloaded by Playwright. */
  chromiumPath: string;
  /** A browser is replaced by a fresh one after this many jobs (`RENDERER_RESTART_AFTER_JOBS`). */
  restartAfterJobs: number;
  /** Time for a page to load, its resources included (`RENDERER_LOAD_TIMEOUT_MS`). */
  loadTimeoutMs: number;
  /** Time for printing or capturing a loaded page (`RENDERER_PRINT_TIMEOUT_MS`). */
  printTimeoutMs: number;
  /** After a web page has loaded, how long to wait at most for its network to fall quiet. */
  settleMs: number;
  /** Entries and unpacked bytes a zip of a page and its assets may hold. */
  zipMaxEntries: number;
  zipMaxBytes: number;
  /** For URL tools: one response's bytes, and requests one page may make. */
  maxResponseBytes: number;
  maxRequestsPerJob: number;
  /** Screenshots are cut at this height, in CSS pixels. */
  maxScreenshotHeight: number;
  /**
   * FOR TESTS ONLY: `host:port` pairs that URL tools may reach although they are private (a local test
   * server). From `RENDERER_ALLOW_PRIVATE_HOSTS`, comma separated; refused when NODE_ENV=production.
   */
  allowPrivateHosts: ReadonlySet<string>;
}

const MB = 1024 * 1024;

/** Every setting the renderer reads besides the kit's, read once when it starts. */
export const rendererSettings = {
  NODE_ENV: setting.optionalText(),
  CHROMIUM_PATH: setting.optionalText(),
  RENDERER_RESTART_AFTER_JOBS: setting.wholeNumber(200),
  RENDERER_LOAD_TIMEOUT_MS: setting.wholeNumber(30_000),
  RENDERER_PRINT_TIMEOUT_MS: setting.wholeNumber(60_000),
  RENDERER_SETTLE_MS: setting.wholeNumber(2_000),
  RENDERER_ZIP_MAX_ENTRIES: setting.wholeNumber(2_000),
  RENDERER_ZIP_MAX_MB: setting.wholeNumber(200),
  RENDERER_MAX_RESPONSE_MB: setting.wholeNumber(50),
  RENDERER_MAX_REQUESTS: setting.wholeNumber(1_000),
  RENDERER_MAX_SCREENSHOT_HEIGHT: setting.wholeNumber(16_384),
  RENDERER_ALLOW_PRIVATE_HOSTS: setting.optionalText(),
};

export function readSettings(env: Env = process.env): RendererSettings {
  const s = readEnvironment(rendererSettings, env);
  return {
    chromiumPath: s.CHROMIUM_PATH ?? chromiumPath,
    restartAfterJobs: Math.max(1, s.RENDERER_RESTART_AFTER_JOBS),
    loadTimeoutMs: s.RENDERER_LOAD_TIMEOUT_MS,
    printTimeoutMs: s.RENDERER_PRINT_TIMEOUT_MS,
    settleMs: s.RENDERER_SETTLE_MS,
    zipMaxEntries: s.RENDERER_ZIP_MAX_ENTRIES,
    zipMaxBytes: s.RENDERER_ZIP_MAX_MB * MB,
    maxResponseBytes: s.RENDERER_MAX_RESPONSE_MB * MB,
    maxRequestsPerJob: s.RENDERER_MAX_REQUESTS,
    maxScreenshotHeight: s.RENDERER_MAX_SCREENSHOT_HEIGHT,
    allowPrivateHosts: parseAllowList(s.RENDERER_ALLOW_PRIVATE_HOSTS, s.NODE_ENV),
  };
}

/** Reads the test-only allow list; a production process refuses to start with one. */
export function parseAllowList(raw: string | undefined, nodeEnv: string | undefined): ReadonlySet<string> {
  const entries = (raw ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0) return new Set();
  if (nodeEnv === 'production') {
    throw new Error('RENDERER_ALLOW_PRIVATE_HOSTS is for tests only and is refused when NODE_ENV=production');
  }
  for (const entry of entries) {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/.test(entry)) {
      throw new Error(`RENDERER_ALLOW_PRIVATE_HOSTS: "${entry}" is not host:port`);
    }
  }
  return new Set(entries);
}
