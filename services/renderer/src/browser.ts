import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type Route,
} from 'playwright-core';
import { ToolError, type Logger, type RestartReason } from '@quire/base';
import { workRoot } from '@quire/http';
import { headlessChromiumFlags } from './chromium.ts';
import type { RendererSettings } from './settings.ts';

/**
 * Chromium flags. The dead proxy is the network policy's floor: every request Chromium would send
 * itself (what route interception does not see, such as beacons or WebSocket handshakes, or what it
 * lets through, such as redirects of fulfilled responses) goes to 127.0.0.1:9, where nothing listens,
 * loopback included (`<-loopback>` removes Chromium's implicit loopback bypass). Only what our route
 * handlers fulfil from Node ever reaches a page. WebRTC may not use UDP outside the proxy, so STUN
 * packets cannot leave either.
 */
export const chromiumArgs = [
  ...headlessChromiumFlags,
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--dns-prefetch-disable',
  '--no-pings',
  '--deny-permission-prompts',
];

/** Options every context gets: nothing persists, nothing installs, nothing downloads. */
export const baseContextOptions: BrowserContextOptions = {
  serviceWorkers: 'block',
  acceptDownloads: false,
  javaScriptEnabled: true,
  bypassCSP: false,
  ignoreHTTPSErrors: false,
  permissions: [],
  locale: 'en-US',
  timezoneId: 'UTC',
  viewport: { width: 1280, height: 800 },
  deviceScaleFactor: 1,
};

export type RouteHandler = (route: Route) => Promise<void>;

/** A fresh context with its page, not yet navigated: nothing has run in it. */
export interface Opened {
  context: BrowserContext;
  page: Page;
  /** Sets the network policy: every HTTP(S) request of the context goes to it. Call before navigating. */
  route(handler: RouteHandler): void;
}

/**
 * A context whose every request is refused until a job sets its policy, and whose WebSockets are
 * always refused (a printed page has no use for them). Installing interception costs more than the
 * rest of a small job, so it is done here, ahead of the job.
 */
async function openFresh(browser: Browser): Promise<Opened> {
  const context = await browser.newContext(baseContextOptions);
  try {
    let policy: RouteHandler | undefined;
    // A page that prints itself (printable invoices and tickets call `window.print()` on load) would
    // hold Chromium's one print job, and ours would fail with "Page is already being printed". Its
    // print is made a no-op in every frame before any of the page's scripts run.
    await context.addInitScript(neutralisePrint);
    await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: 'not allowed' }));
    await context.route('**/*', async (route) => {
      if (policy) return policy(route);
      await route.abort('blockedbyclient').catch(() => undefined);
    });
    const page = await context.newPage();
    return {
      context,
      page,
      route: (handler) => {
        policy = handler;
      },
    };
  } catch (err) {
    await context.close().catch(() => undefined);
    throw err;
  }
}

/** Runs in every frame before the page's own scripts: `print()` does nothing and cannot be restored. */
export const neutralisePrint = `(() => {
  const noop = function print() {};
  try {
    Object.defineProperty(window, 'print', { value: noop, writable: false, configurable: false });
  } catch {
    window.print = noop;
  }
})();`;

/** One launched browser and what runs on it. */
interface Generation {
  id: number;
  browser: Promise<Browser>;
  /** Chromium's own temporary files, removed with it. */
  tmp: string;
  jobs: number;
  active: number;
  retired: boolean;
  dead: boolean;
  /** Rejects when the browser goes away, so that no job waits on a dead browser for an answer. */
  died: Promise<never>;
  markDead: (why: Error) => void;
  /**
   * A context and page made ahead while the browser is idle, so that a job does not wait for them
   * (about half of a small job's time). It is still fresh: no job has used it.
   */
  spare?: Promise<Opened | undefined>;
}

export interface Session {
  /**
   * A fresh context and page on the job's browser, of the given viewport; closed when the job ends,
   * whatever happens. Install routes before the first navigation.
   */
  open(viewport?: { width: number; height: number }): Promise<Opened>;
}

/**
 * Keeps one warm Chromium for the service: a fresh context per job, the browser replaced after N jobs
 * (while jobs still running on the old one finish there) and relaunched when it crashes. A job whose
 * browser dies under it fails as `internal`; the next job gets a new browser.
 */
export class BrowserSupervisor {
  private current: Generation | undefined;
  private readonly all = new Set<Generation>();
  private generations = 0;
  private closed = false;
  /** Told of every replacement of the browser, for the service's metrics. */
  onRestart: (reason: RestartReason) => void = () => {};

  constructor(
    private readonly settings: RendererSettings,
    private readonly log: Logger,
  ) {}

  /** Starts the browser now rather than at the first job. */
  warm(): Promise<void> {
    return this.generation().browser.then(
      () => undefined,
      () => undefined,
    );
  }

  get stats(): { launches: number; jobsOnCurrent: number; running: number } {
    return {
      launches: this.generations,
      jobsOnCurrent: this.current?.jobs ?? 0,
      running: [...this.all].reduce((n, g) => n + g.active, 0),
    };
  }

  /** For health checks: the browser answers, and its version. */
  async health(): Promise<Record<string, unknown>> {
    const gen = this.generation();
    const browser = await gen.browser;
    if (!browser.isConnected()) throw new Error('chromium is not connected');
    return { chromium: browser.version(), jobsOnBrowser: gen.jobs, launches: this.generations };
  }

  /** The process id of the current browser (tests kill it to check crash handling). */
  async browserPid(): Promise<number | undefined> {
    const gen = this.current;
    if (!gen) return undefined;
    const cdp = await withTimeout((await gen.browser).newBrowserCDPSession(), 10_000);
    try {
      const { processInfo } = (await withTimeout(cdp.send('SystemInfo.getProcessInfo'), 10_000)) as {
        processInfo: { type: string; id: number }[];
      };
      return processInfo.find((p) => p.type === 'browser')?.id;
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }

  /**
   * Runs one job on the warm browser. Contexts it opens are closed when it ends or when `signal`
   * aborts (timeout, client gone), which stops whatever the page was doing.
   */
  async run<T>(signal: AbortSignal, job: (session: Session) => Promise<T>): Promise<T> {
    if (this.closed) throw new ToolError('not_available');
    const gen = this.generation();
    gen.jobs++;
    gen.active++;
    const contexts: BrowserContext[] = [];
    try {
      const browser = await abortable(gen.browser, signal).catch((err: unknown) => {
        if (err instanceof ToolError) throw err;
        throw new ToolError('internal', 'The page renderer could not start. Please try again.', { cause: err });
      });
      const session: Session = {
        open: async (viewport) => {
          signal.throwIfAborted();
          if (gen.dead) throw new Error('chromium went away');
          const spare = gen.spare;
          gen.spare = undefined;
          // The next job's context is made while this one works (Chromium does it in other processes).
          if (spare) this.prepare(gen);
          let opened = spare ? await spare : undefined;
          if (!opened || opened.page.isClosed()) opened = await openFresh(browser);
          contexts.push(opened.context);
          if (signal.aborted) throw reasonOf(signal);
          const size = opened.page.viewportSize();
          if (viewport && (size?.width !== viewport.width || size?.height !== viewport.height)) {
            await opened.page.setViewportSize(viewport);
          }
          return opened;
        },
      };
      // Every step of a job has its own time limit; this one catches a browser that stops answering
      // altogether (it is then replaced), and a browser that dies fails its jobs at once.
      const hardLimitMs = this.settings.loadTimeoutMs + 2 * this.settings.printTimeoutMs + 30_000;
      return await abortable(
        withTimeout(Promise.race([job(session), gen.died]), hardLimitMs, () => new StuckError()),
        signal,
      );
    } catch (err) {
      if (err instanceof StuckError) {
        this.log.error('chromium stopped answering; replacing it', { generation: gen.id });
        this.retire(gen);
        this.onRestart('timeout');
        void gen.browser.then((b) => withTimeout(b.close(), 5_000)).catch(() => undefined);
        throw new ToolError('timeout', undefined, { cause: err });
      }
      if (err instanceof ToolError) throw err;
      if (
        gen.dead ||
        !(await gen.browser.then(
          (b) => b.isConnected(),
          () => false,
        ))
      ) {
        throw new ToolError('internal', 'The page renderer stopped unexpectedly. Please try again.', { cause: err });
      }
      throw new ToolError('internal', 'The page could not be rendered. Please try again.', { cause: err });
    } finally {
      // The result is ready: contexts close while it is sent (a context's close stops its page).
      void Promise.all(contexts.map((ctx) => this.closeContext(gen, ctx))).then(() => this.jobDone(gen));
    }
  }

  private jobDone(gen: Generation): void {
    gen.active--;
    if (gen === this.current && gen.jobs >= this.settings.restartAfterJobs) {
      this.log.info('restarting chromium', { jobs: gen.jobs });
      this.retire(gen);
      this.onRestart('after_jobs');
      if (!this.closed) void this.warm();
    }
    if (gen.retired && gen.active === 0) void this.shutdown(gen);
    else this.prepare(gen);
  }

  /** Makes the next job's context and page ahead of time. */
  private prepare(gen: Generation): void {
    if (gen.spare || gen.dead || gen.retired || this.closed) return;
    gen.spare = gen.browser.then(openFresh).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((gen) => this.shutdown(gen)));
  }

  private generation(): Generation {
    if (this.current && !this.current.dead && !this.current.retired) return this.current;
    const gen: Generation = {
      id: ++this.generations,
      browser: undefined as unknown as Promise<Browser>,
      tmp: '',
      jobs: 0,
      active: 0,
      retired: false,
      dead: false,
      died: undefined as unknown as Promise<never>,
      markDead: () => undefined,
    };
    gen.died = new Promise<never>((_, reject) => {
      gen.markDead = (why) => {
        gen.dead = true;
        reject(why);
      };
    });
    gen.died.catch(() => undefined);
    gen.browser = this.launch(gen);
    gen.browser.catch((err: unknown) => {
      this.log.error('chromium did not start', { err: String(err) });
      gen.markDead(err instanceof Error ? err : new Error(String(err)));
      if (this.current === gen) this.current = undefined;
      this.all.delete(gen);
    });
    this.current = gen;
    this.all.add(gen);
    return gen;
  }

  private async launch(gen: Generation): Promise<Browser> {
    const root = scratchRoot();
    await mkdir(root, { recursive: true, mode: 0o700 });
    gen.tmp = await mkdtemp(join(root, 'chromium-'));
    try {
      const browser = await chromium.launch({
        executablePath: this.settings.chromiumPath,
        headless: true,
        args: chromiumArgs,
        // Chromium's scratch files go to a folder we remove, not the machine's /tmp.
        env: { ...process.env, TMPDIR: gen.tmp },
        timeout: 30_000,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      browser.on('disconnected', () => {
        // A browser retired on purpose is counted where it was retired; any other end is a crash.
        if (!gen.retired) {
          this.log.warn('chromium went away', { generation: gen.id, jobs: gen.jobs });
          this.onRestart('crash');
        }
        gen.markDead(new Error('chromium went away'));
        if (this.current === gen) this.current = undefined;
        this.all.delete(gen);
        void rm(gen.tmp, { recursive: true, force: true });
      });
      if (this.closed) await browser.close();
      else queueMicrotask(() => this.prepare(gen));
      return browser;
    } catch (err) {
      await rm(gen.tmp, { recursive: true, force: true });
      throw err;
    }
  }

  private retire(gen: Generation): void {
    gen.retired = true;
    if (this.current === gen) this.current = undefined;
  }

  private async shutdown(gen: Generation): Promise<void> {
    this.retire(gen);
    this.all.delete(gen);
    const browser = await gen.browser.catch(() => undefined);
    if (browser?.isConnected()) {
      await withTimeout(browser.close(), 10_000).catch(() => undefined);
    }
    if (gen.tmp) await rm(gen.tmp, { recursive: true, force: true });
  }

  /** A context that does not close in time means a browser that is stuck: replace it. */
  private async closeContext(gen: Generation, ctx: BrowserContext): Promise<void> {
    try {
      await withTimeout(ctx.close(), 10_000);
    } catch (err) {
      if (gen.dead) return;
      this.log.warn('a context did not close; replacing chromium', { err: String(err) });
      this.retire(gen);
      const browser = await gen.browser.catch(() => undefined);
      await withTimeout(browser?.close() ?? Promise.resolve(), 5_000).catch(() => undefined);
    }
  }
}

class StuckError extends Error {
  constructor() {
    super('the browser did not answer within the job time limit');
    this.name = 'StuckError';
  }
}

/** The promise, or the signal's reason as soon as it aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(reasonOf(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reasonOf(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function reasonOf(signal: AbortSignal): unknown {
  return signal.reason instanceof ToolError ? signal.reason : new ToolError('timeout');
}

/** The promise, or a rejection after `ms`. */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  error: () => Error = () => new Error(`timed out after ${ms} ms`),
): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Where a browser's scratch folder goes: the work root, unless that is too deep for the SingletonSocket
 * Chromium binds two folders below TMPDIR (a Unix socket path holds at most 107 bytes).
 */
export function scratchRoot(root = workRoot()): string {
  const below = '/chromium-XXXXXX/org.chromium.Chromium.XXXXXX/SingletonSocket';
  return root.length + below.length <= 107 ? root : join(tmpdir(), 'quire-chromium');
}
