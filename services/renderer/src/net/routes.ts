import type { Frame, Route } from 'playwright-core';
import { timeLeft, type Logger } from '@quire/base';
import type { RouteHandler } from '../browser.ts';
import type { RendererSettings } from '../settings.ts';
import { PolicyError, resolveAllowed, type Pinned } from './address.ts';
import { fetchHop, type HopRequest } from './fetch.ts';

/** The made-up origin an uploaded page and its assets are served from; `.invalid` never resolves. */
export const siteOrigin = 'http://quire.invalid';

const types: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  json: 'application/json',
  txt: 'text/plain',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  eot: 'application/vnd.ms-fontobject',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The content type of an asset by its extension; text that is valid UTF-8 is declared so. */
export function contentType(path: string, body: Buffer): string {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  const type = types[ext] ?? 'application/octet-stream';
  if (!/^text\/|xml|json/.test(type)) return type;
  try {
    utf8.decode(body);
    return `${type}; charset=utf-8`;
  } catch {
    return type; // Not UTF-8: let the document's own declaration decide.
  }
}

/** What a job's policy shares with the code that drives its page. */
export interface NavigationState {
  /** The job's page's main frame, once known. */
  mainFrame?: Frame;
  /** True once the job's own first navigation has committed; later ones are the page's doing. */
  committed: boolean;
  /** Called when the page tried to navigate itself somewhere it may not go, and was kept where it was. */
  onRefusedNavigation: () => void;
  /** URL tools: set when the main document answered with a redirect: the next hop to navigate to. */
  redirectTo?: URL;
  /** URL tools: why the main document's request was refused or failed. */
  mainError?: PolicyError;
  /** URL tools: the main document's HTTP status. */
  mainStatus?: number;
  requests: number;
  /**
   * URL tools: each origin's checked address, resolved once per job, so that a page's many requests
   * cost one lookup and every request of the job goes to the same checked address.
   */
  resolved: Map<string, Promise<Pinned>>;
  /** Aborts every fetch still running when the job ends. */
  abort: AbortController;
}

export function navigationState(): NavigationState {
  return {
    committed: false,
    onRefusedNavigation: () => undefined,
    requests: 0,
    resolved: new Map(),
    abort: new AbortController(),
  };
}

const blankDocument = '<!doctype html><title></title>';

function isTopFrame(route: Route): boolean {
  try {
    return route.request().frame().parentFrame() === null;
  } catch {
    return false; // a service worker's request has no frame
  }
}

/**
 * Refuses a request. The job's own navigation is aborted, so that it fails with the reason recorded.
 * A navigation the page makes itself is not aborted, as an aborted navigation
 * commits Chromium's error page (which then prints, or makes printing fail): the top frame gets a
 * 204, which keeps the page where it was, and a frame gets an empty document.
 */
async function refuse(
  route: Route,
  state: NavigationState,
  kind: 'blocked' | 'unreachable',
  jobsOwn = false,
): Promise<void> {
  const request = route.request();
  if (request.isNavigationRequest() && !jobsOwn) {
    if (isTopFrame(route)) {
      state.onRefusedNavigation();
      return route.fulfill({ status: 204 });
    }
    return route.fulfill({ status: 200, contentType: 'text/html', body: blankDocument });
  }
  return route.abort(kind === 'blocked' ? 'blockedbyclient' : 'failed');
}

/**
 * Uploaded HTML: the page and its zip's assets are served from memory at `siteOrigin`; every other
 * request is refused (`data:` and `blob:` never reach the network and stay usable).
 */
export function sitePolicy(files: ReadonlyMap<string, Buffer>, state: NavigationState): RouteHandler {
  return async (route: Route) => {
    try {
      const url = new URL(route.request().url());
      if (url.origin !== siteOrigin) return await refuse(route, state, 'blocked');
      let path: string;
      try {
        path = decodeURIComponent(url.pathname).replace(/^\/+/, '');
      } catch {
        path = url.pathname.replace(/^\/+/, '');
      }
      if (path === '' || path.endsWith('/')) path += 'index.html';
      const body = files.get(path);
      // A missing asset: an empty document, so that a frame pointing at it prints blank.
      if (!body) return await route.fulfill({ status: 404, contentType: 'text/html', body: blankDocument });
      return await route.fulfill({
        status: 200,
        headers: { 'content-type': contentType(path, body), 'cache-control': 'no-store' },
        body,
      });
    } catch {
      /* the context closed under the request */
    }
  };
}

const maxSubresourceRedirects = 10;

/**
 * URL tools: every request of the page (documents, frames, subresources, fetch, XHR, EventSource,
 * beacons; WebSockets are refused for every page) is fetched by Node, each hop checked against the address policy and connected to the
 * address that was checked. Redirects of the main document go back to the browser as a new navigation
 * (checked again), so the page keeps its real URL; other redirects are followed here, hop by hop.
 */
export function urlPolicy(
  settings: RendererSettings,
  state: NavigationState,
  log: Logger,
  deadline: () => number,
): RouteHandler {
  return async (route: Route) => {
    const request = route.request();
    let isMain = false;
    try {
      // The job's own navigation of its page (hops of its redirects included), not the page's doing.
      isMain = request.isNavigationRequest() && !state.committed && request.frame() === state.mainFrame;
    } catch {
      isMain = false; // requests of service workers have no frame (and are blocked anyway)
    }
    try {
      if (++state.requests > settings.maxRequestsPerJob) {
        throw new PolicyError('unreachable', 'too many requests for one page');
      }
      let url = new URL(request.url());
      const hop: HopRequest = {
        method: request.method(),
        headers: await request.allHeaders(),
        body: request.postDataBuffer() ?? undefined,
      };
      for (let n = 0; ; n++) {
        let check = state.resolved.get(url.origin);
        if (!check) {
          check = resolveAllowed(url, settings.allowPrivateHosts, state.abort.signal);
          check.catch(() => undefined);
          state.resolved.set(url.origin, check);
        }
        const pinned = await check;
        const res = await fetchHop(url, hop, pinned, {
          maxBytes: settings.maxResponseBytes,
          timeoutMs: timeLeft(deadline()),
          signal: state.abort.signal,
        });
        const location = res.headers.location;
        if (res.status >= 300 && res.status < 400 && location && res.status !== 304) {
          const next = new URL(location, url);
          if (isMain) {
            state.redirectTo = next;
            return await route.abort('aborted');
          }
          if (n >= maxSubresourceRedirects) throw new PolicyError('unreachable', 'too many redirects');
          if (res.status === 303 || ((res.status === 301 || res.status === 302) && hop.method === 'POST')) {
            hop.method = 'GET';
            hop.body = undefined;
          }
          if (next.origin !== url.origin) {
            delete hop.headers.cookie;
            delete hop.headers.authorization;
          }
          url = next;
          continue;
        }
        if (isMain) state.mainStatus = res.status;
        return await route.fulfill({ status: res.status, headers: res.headers, body: res.body });
      }
    } catch (err) {
      const error = err instanceof PolicyError ? err : new PolicyError('unreachable', 'request failed', { cause: err });
      if (isMain) state.mainError = error;
      log.debug('request refused', { url: request.url().slice(0, 200), kind: error.kind, why: error.message });
      await refuse(route, state, error.kind, isMain).catch(() => undefined);
    }
  };
}
