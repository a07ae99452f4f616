import { chromiumPath, envInt } from '@quire/service-kit';

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

export function readSettings(env: NodeJS.ProcessEnv = process.env): RendererSettings {
  return {
    chromiumPath: env.CHROMIUM_PATH || chromiumPath,
    restartAfterJobs: Math.max(1, envInt('RENDERER_RESTART_AFTER_JOBS', 200, env)),
    loadTimeoutMs: envInt('RENDERER_LOAD_TIMEOUT_MS', 30_000, env),
    printTimeoutMs: envInt('RENDERER_PRINT_TIMEOUT_MS', 60_000, env),
    settleMs: envInt('RENDERER_SETTLE_MS', 2_000, env),
    zipMaxEntries: envInt('RENDERER_ZIP_MAX_ENTRIES', 2_000, env),
    zipMaxBytes: envInt('RENDERER_ZIP_MAX_MB', 200, env) * MB,
    maxResponseBytes: envInt('RENDERER_MAX_RESPONSE_MB', 50, env) * MB,
    maxRequestsPerJob: envInt('RENDERER_MAX_REQUESTS', 1_000, env),
    maxScreenshotHeight: envInt('RENDERER_MAX_SCREENSHOT_HEIGHT', 16_384, env),
    allowPrivateHosts: parseAllowList(env.RENDERER_ALLOW_PRIVATE_HOSTS, env.NODE_ENV),
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
