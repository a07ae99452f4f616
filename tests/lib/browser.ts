/**
 * The browser the site tests drive: Debian's Chromium through playwright-core, one per test file,
 * a fresh context (empty local storage) per page. Each opened page records what a visitor would not
 * see but a test must: console errors, uncaught page errors and the text of every dialog.
 */
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { chromiumPath, headlessChromiumFlags } from '@quire/renderer/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: headlessChromiumFlags,
  });
}

export interface OpenOptions {
  /** The browser's language (navigator.languages), e.g. 'fr-FR'; default en-US. */
  locale?: string;
  /** Desktop by default. */
  viewport?: { width: number; height: number };
  /** Runs no script at all: the page as the prerenderer wrote it. */
  javaScriptEnabled?: boolean;
  /** Lets injected scripts (axe) run despite the site's Content-Security-Policy. */
  bypassCSP?: boolean;
  /** The page is expected to answer 404: its "Failed to load resource ... 404" console lines are not errors. */
  expect404?: boolean;
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions, in order. */
  errors: string[];
  /** The message of every alert, confirm or prompt; each is dismissed. */
  dialogs: string[];
  close(): Promise<void>;
}

const notFoundResource = /^Failed to load resource: the server responded with a status of 404/;

/** A new page in a new context that records errors and dialogs. */
export async function openPage(browser: Browser, options: OpenOptions = {}): Promise<OpenedPage> {
  const contextOptions: BrowserContextOptions = {
    locale: options.locale ?? 'en-US',
    viewport: options.viewport ?? { width: 1280, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    bypassCSP: options.bypassCSP ?? false,
    serviceWorkers: 'block',
  };
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    if (options.expect404 && notFoundResource.test(msg.text())) return;
    errors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => undefined);
  });
  return { page, context, errors, dialogs, close: () => context.close() };
}

/** A page opened by {@link BrowserSession.open}: the HTTP status of its visit too. */
export interface VisitedPage extends OpenedPage {
  status: number;
}

export interface BrowserSession {
  /** The stack's public address, inject('baseUrl'); set from beforeAll on. */
  readonly base: string;
  /** The test file's browser; launched in beforeAll. */
  readonly browser: Browser;
  /** The page the running test opened last, while it is open. */
  readonly current: OpenedPage | undefined;
  /** A new page (see {@link openPage}) that has visited `path` of the site (see {@link visit}). */
  open(path: string, options?: OpenOptions): Promise<VisitedPage>;
  /** A new page that has not loaded anything yet: for pages without scripts, or listeners set before the visit. */
  openBlank(options?: OpenOptions): Promise<OpenedPage>;
}

/**
 * One browser for the test file: registers the hooks that launch it before the file's tests and close it
 * after them, and closes, after each test, every page that test opened through the session (a page a
 * test closes itself is not closed twice). Call it once, at the top level of the file.
 */
export function useBrowser(): BrowserSession {
  let base: string | undefined;
  let browser: Browser | undefined;
  /** The pages open now, in the order they were opened. */
  const pages: OpenedPage[] = [];
  beforeAll(async () => {
    base = inject('baseUrl');
    browser = await launchBrowser();
  });
  afterEach(async () => {
    for (const opened of [...pages]) await opened.close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useBrowser: ${what} is set in beforeAll; use it in a test or hook`);
    return value;
  };

  async function openBlank(options: OpenOptions = {}): Promise<OpenedPage> {
    const opened = await openPage(ready(browser, 'the browser'), options);
    let closing: Promise<void> | undefined;
    const tracked: OpenedPage = {
      ...opened,
      close: () => {
        if (!closing) {
          pages.splice(pages.indexOf(tracked), 1);
          closing = opened.close();
        }
        return closing;
      },
    };
    pages.push(tracked);
    return tracked;
  }

  async function open(path: string, options: OpenOptions = {}): Promise<VisitedPage> {
    const opened = await openBlank(options);
    const status = await visit(opened.page, `${ready(base, 'base')}${path}`);
    return Object.assign(opened, { status });
  }

  return {
    get base() {
      return ready(base, 'base');
    },
    get browser() {
      return ready(browser, 'the browser');
    },
    get current() {
      return pages.at(-1);
    },
    open,
    openBlank,
  };
}

/**
 * How long a wait for the page may last before it fails: a limit for a fault only, far above what a
 * page takes on a busy machine (a wait ends as soon as its condition holds).
 */
export const pageWaitMs = 60_000;

/**
 * Waits until a JavaScript expression is truthy in the page, polling from here: the site's CSP forbids
 * the eval that page-side polling (waitForFunction with a string) would need.
 */
export async function waitUntil(
  page: Page,
  expression: string,
  timeout = pageWaitMs,
  what = expression,
): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(expression).catch(() => false)) return;
    if (Date.now() > end) throw new Error(`Timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits until React has hydrated the page: the header's search box then carries React's props. Before
 * that, clicks and typing reach only the prerendered HTML.
 */
export async function waitForHydration(page: Page, timeout = pageWaitMs): Promise<void> {
  await waitUntil(
    page,
    `(() => {
      const el = document.getElementById('tool-search');
      return !!el && Object.keys(el).some((k) => k.startsWith('__reactProps'));
    })()`,
    timeout,
    'hydration',
  );
}

/**
 * Opens a path of the site and waits for hydration and for the page's h1 (pages served from the app
 * shell, such as 404s and saved workflows, render their content only then); returns the HTTP status.
 */
export async function visit(page: Page, url: string): Promise<number> {
  const res = await page.goto(url, { waitUntil: 'load' });
  await waitForHydration(page);
  await waitUntil(page, `!!document.querySelector('main h1')`, pageWaitMs, 'the page heading');
  return res?.status() ?? 0;
}

export async function localStorageItem(page: Page, key: string): Promise<string | null> {
  return (await page.evaluate(`localStorage.getItem(${JSON.stringify(key)})`)) as string | null;
}

export async function setLocalStorageItem(page: Page, key: string, value: string): Promise<void> {
  await page.evaluate(`localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(value)})`);
}

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

let axeSource: string | undefined;

/**
 * Runs axe-core on the page as it is now and returns the violations of impact serious or critical.
 * The script is evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= (createRequire(import.meta.url)('axe-core') as { source: string }).source;
  if (!(await page.evaluate(`typeof window.axe === 'object'`))) await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
      id: v.id, impact: v.impact ?? '', help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ': ' + (n.failureSummary ?? '').replace(/\\s+/g, ' ')),
    })))`,
  )) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
