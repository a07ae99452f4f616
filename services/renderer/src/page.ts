import type { Page } from 'playwright-core';
import { ToolError, type Logger } from '@quire/base';
import { withTimeout } from './browser.ts';
import { PolicyError, resolveAllowed } from './net/address.ts';
import type { NavigationState } from './net/routes.ts';
import type { RendererSettings } from './settings.ts';

const maxMainRedirects = 10;

export function policyToToolError(err: PolicyError): ToolError {
  return err.kind === 'blocked'
    ? new ToolError('url_blocked', undefined, { cause: err })
    : new ToolError('url_unreachable', undefined, { cause: err });
}

/**
 * Opens a web address as the job's main document. Each hop of a redirect chain is checked before the
 * browser is sent there (a redirect to a forbidden place or scheme is `url_blocked`), and the route
 * handler checks it again as it fetches. Answers once the document has started to arrive.
 */
export async function openUrl(
  page: Page,
  start: URL,
  state: NavigationState,
  settings: RendererSettings,
): Promise<void> {
  state.mainFrame = page.mainFrame();
  let target = start;
  for (let hop = 0; ; hop++) {
    try {
      await resolveAllowed(target, settings.allowPrivateHosts, state.abort.signal);
    } catch (err) {
      throw err instanceof PolicyError ? policyToToolError(err) : err;
    }
    state.redirectTo = undefined;
    state.mainError = undefined;
    state.mainStatus = undefined;
    try {
      await page.goto(target.href, { waitUntil: 'commit', timeout: settings.loadTimeoutMs });
    } catch (err) {
      if (state.redirectTo) {
        if (hop >= maxMainRedirects) {
          throw new ToolError('url_unreachable', 'The page redirects too many times.', { cause: err });
        }
        target = state.redirectTo;
        continue;
      }
      if (state.mainError) throw policyToToolError(state.mainError);
      if (/Download is starting/i.test(String(err))) {
        throw new ToolError('url_unreachable', 'This address does not lead to a web page.', { cause: err });
      }
      if ((err as Error).name === 'TimeoutError') {
        throw new ToolError('url_unreachable', 'The page took too long to answer.', { cause: err });
      }
      throw new ToolError('url_unreachable', undefined, { cause: err });
    }
    if (state.mainStatus !== undefined && state.mainStatus >= 400) {
      throw new ToolError('url_unreachable', `The page answered with an error (HTTP ${state.mainStatus}).`);
    }
    state.committed = true;
    return;
  }
}

/**
 * Waits for the page to finish loading, within the load timeout: a page still loading then is
 * printed as it is (printing has its own timeout). `settle` also waits, briefly, for the network to
 * fall quiet, for pages that fetch their content after load.
 */
export async function waitForPage(
  page: Page,
  settings: RendererSettings,
  state: NavigationState,
  started: number,
  log: Logger,
  settle: boolean,
) {
  const left = () => Math.max(100, started + settings.loadTimeoutMs - Date.now());
  // A page that tried to navigate away while loading (and was kept) may never fire its load event:
  // give it a moment, then print it as it is.
  const refused = new Promise<void>((resolve) => {
    state.onRefusedNavigation = () => setTimeout(resolve, 500);
  });
  try {
    await Promise.race([page.waitForLoadState('load', { timeout: left() }), refused]);
    if (settle && settings.settleMs > 0) {
      await page
        .waitForLoadState('networkidle', { timeout: Math.min(settings.settleMs, left()) })
        .catch(() => undefined);
    }
  } catch (err) {
    log.info('page still loading at its time limit; printing it as it is', { err: String(err).slice(0, 200) });
  }
  // Web fonts that are still on their way would print in a fallback face.
  await withTimeout(page.evaluate('document.fonts.ready.then(() => true)'), Math.min(3000, left())).catch(
    () => undefined,
  );
}

/** Runs a print or capture step under its own time limit. */
export function printStep<T>(step: Promise<T>, settings: RendererSettings): Promise<T> {
  return withTimeout(
    step,
    settings.printTimeoutMs,
    () => new ToolError('timeout', 'The page took too long to print and was stopped. Please try a simpler page.'),
  );
}
