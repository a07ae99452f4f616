import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ToolOptions } from '@quire/catalog';
import { safeName, ToolError, type Logger } from '@quire/base';
import { pageCount } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import type { BrowserSupervisor, Session } from './browser.ts';
import { navigationState, sitePolicy, siteOrigin, urlPolicy } from './net/routes.ts';
import { PolicyError, resolveAllowed } from './net/address.ts';
import { openUrl, policyToToolError, printStep, waitForPage } from './page.ts';
import type { RendererSettings } from './settings.ts';
import type { SiteFiles } from './site.ts';

export type PdfOptions = NonNullable<Parameters<Page['pdf']>[0]>;

/** What the renderer's tools share: its settings and browser, and the steps of printing a page. */
export interface Printing {
  settings: RendererSettings;
  supervisor: BrowserSupervisor;
  /** Prints a site held in memory (an upload, or a page we made) in a fresh context. */
  printSite(session: Session, site: SiteFiles, pdf: PdfOptions, log: Logger): Promise<Buffer>;
  /** Opens a web address under the URL policy; the caller prints or captures it. */
  openWebPage(
    session: Session,
    url: URL,
    job: ToolContext,
    viewportWidth: number,
    media: 'print' | 'screen',
  ): Promise<Page>;
  /** The job's address, checked before any browser work: a forbidden one is refused at once. */
  checkedUrl(job: ToolContext): Promise<URL>;
  /** The PDF written to the job's folder, with its pages counted. */
  finish(job: ToolContext, pdf: Buffer, name: string | undefined, extra?: Record<string, unknown>): Promise<ToolResult>;
}

export function createPrinting(settings: RendererSettings, supervisor: BrowserSupervisor): Printing {
  async function printSite(session: Session, site: SiteFiles, pdf: PdfOptions, log: Logger): Promise<Buffer> {
    const t0 = Date.now();
    const { page, route } = await session.open({ width: 1280, height: 800 });
    const state = navigationState();
    route(sitePolicy(site, state));
    await page.emulateMedia({ media: 'print' });
    const t1 = Date.now();
    try {
      await page.goto(`${siteOrigin}/index.html`, { waitUntil: 'commit', timeout: settings.loadTimeoutMs });
      state.committed = true;
    } catch (err) {
      if ((err as Error).name === 'TimeoutError')
        throw new ToolError('timeout', 'The page took too long to load.', { cause: err });
      throw err;
    }
    await waitForPage(page, settings, state, t1, log, false);
    const t2 = Date.now();
    const out = await printStep(page.pdf(pdf), settings);
    log.debug('printed', { openMs: t1 - t0, loadMs: t2 - t1, printMs: Date.now() - t2 });
    return out;
  }

  async function openWebPage(
    session: Session,
    url: URL,
    job: ToolContext,
    viewportWidth: number,
    media: 'print' | 'screen',
  ) {
    const { context, page, route } = await session.open({ width: viewportWidth, height: 800 });
    const state = navigationState();
    job.signal.addEventListener('abort', () => state.abort.abort(), { once: true });
    context.on('close', () => state.abort.abort());
    const started = Date.now();
    route(urlPolicy(settings, state, job.log, () => Math.min(job.deadline, started + settings.loadTimeoutMs)));
    await page.emulateMedia({ media });
    await openUrl(page, url, state, settings);
    await waitForPage(page, settings, state, started, job.log, true);
    return page;
  }

  async function checkedUrl(job: ToolContext): Promise<URL> {
    const url = new URL(job.url ?? '');
    try {
      await resolveAllowed(url, settings.allowPrivateHosts, job.signal);
    } catch (err) {
      throw err instanceof PolicyError ? policyToToolError(err) : err;
    }
    return url;
  }

  async function finish(job: ToolContext, pdf: Buffer, name: string | undefined, extra: Record<string, unknown> = {}) {
    const path = join(job.workdir, 'out.pdf');
    await writeFile(path, pdf);
    const pages = await pageCount(path, job);
    return { path, ...(name ? { name } : {}), properties: { pages, ...extra } };
  }

  return { settings, supervisor, printSite, openWebPage, checkedUrl, finish };
}

/** The print settings of the catalog's options: paper, orientation, margins, header and footer. */
export function pdfOptions(
  options: ToolOptions<'html-to-pdf' | 'pdf-from-url' | 'markdown-to-pdf'>,
  site?: SiteFiles,
): PdfOptions {
  const header = template(site?.get('header.html'));
  const footer = template(site?.get('footer.html'));
  const templates = header !== undefined || footer !== undefined;
  const edge = templates ? '2cm' : '1cm';
  return {
    format: options.pageSize === 'letter' ? 'Letter' : 'A4',
    landscape: options.landscape,
    printBackground: true,
    preferCSSPageSize: false,
    margin: { top: edge, bottom: edge, left: '1cm', right: '1cm' },
    ...(templates
      ? {
          displayHeaderFooter: true,
          headerTemplate: header ?? '<span></span>',
          footerTemplate: footer ?? '<span></span>',
        }
      : {}),
  };
}

/**
 * A header or footer template as Chromium can print it: templates load nothing (Chromium gives up
 * printing when a stylesheet or font of a template fails), so links, imports and non-`data:` URLs
 * in CSS are taken out. Images and fonts as `data:` URLs still work; scripts never run in templates.
 */
export function template(bytes: Buffer | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  return bytes
    .toString('utf8')
    .replace(/<link\b[^>]*>/gi, '')
    .replace(/@import\b[^;]*;?/gi, '')
    .replace(/url\(\s*(?!['"]?\s*data:)[^)]*\)/gi, 'none');
}

/** A readable result name from the page's host. */
export function nameFor(url: URL): string {
  return `${safeName(url.hostname.replace(/^www\./, '')) || 'page'}.pdf`;
}
