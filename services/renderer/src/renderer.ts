import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  createLogger,
  pageCount,
  safeName,
  ToolError,
  type Logger,
  type ToolContext,
  type ToolRun,
} from '@quire/service-kit';
import { BrowserSupervisor, type Session } from './browser.ts';
import { navigationState, sitePolicy, siteOrigin, urlPolicy } from './net/routes.ts';
import { PolicyError, resolveAllowed } from './net/address.ts';
import { openUrl, policyToToolError, printStep, waitForPage } from './page.ts';
import { readSettings, type RendererSettings } from './settings.ts';
import { readSite, type SiteFiles } from './site.ts';

type PdfOptions = NonNullable<Parameters<Page['pdf']>[0]>;

/** The largest page Acrobat opens is 200 inches; taller screenshots are cut into several pages. */
const maxPagePx = 200 * 96;

export interface Renderer {
  settings: RendererSettings;
  supervisor: BrowserSupervisor;
  tools: Record<'html-to-pdf' | 'pdf-from-url' | 'screenshot-to-pdf', ToolRun>;
  health: () => Promise<Record<string, unknown>>;
  close: () => Promise<void>;
}

/** The print settings of the catalog's options: paper, orientation, margins, header and footer. */
export function pdfOptions(options: Record<string, unknown>, site?: SiteFiles): PdfOptions {
  const header = template(site?.get('header.html'));
  const footer = template(site?.get('footer.html'));
  const templates = header !== undefined || footer !== undefined;
  const edge = templates ? '2cm' : '1cm';
  return {
    format: options.pageSize === 'letter' ? 'Letter' : 'A4',
    landscape: options.landscape === true,
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
function nameFor(url: URL): string {
  return `${safeName(url.hostname.replace(/^www\./, '')) || 'page'}.pdf`;
}

export function createRenderer(
  overrides: Partial<RendererSettings> = {},
  log: Logger = createLogger('renderer'),
): Renderer {
  const settings: RendererSettings = { ...readSettings(), ...overrides };
  const supervisor = new BrowserSupervisor(settings, log);

  /** Prints a site held in memory (an upload, or a page we made) in a fresh context. */
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

  /** Opens a web address under the URL policy; the caller prints or captures it. */
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

  /** The address is checked before any browser work: a forbidden one is refused at once. */
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

  const tools: Renderer['tools'] = {
    'html-to-pdf': async (job) => {
      const input = job.inputs[0];
      if (!input) throw new ToolError('missing_file');
      const site = await readSite(input, { maxEntries: settings.zipMaxEntries, maxBytes: settings.zipMaxBytes });
      if (!site.has('index.html')) throw new ToolError('unsupported_type', 'The zip must hold index.html at its top.');
      const pdf = await supervisor.run(job.signal, (session) =>
        printSite(session, site, pdfOptions(job.options, site), job.log),
      );
      return finish(job, pdf, undefined);
    },

    'pdf-from-url': async (job) => {
      const url = await checkedUrl(job);
      const pdf = await supervisor.run(job.signal, async (session) => {
        const page = await openWebPage(session, url, job, 1280, 'print');
        return printStep(page.pdf(pdfOptions(job.options)), settings);
      });
      return finish(job, pdf, nameFor(url));
    },

    'screenshot-to-pdf': async (job) => {
      const url = await checkedUrl(job);
      const width = Number(job.options.width ?? 1280);
      const { pdf, height } = await supervisor.run(job.signal, async (session) => {
        const page = await openWebPage(session, url, job, width, 'screen');
        const scrollHeight = Number(
          await printStep(
            page.evaluate(
              'Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)',
            ),
            settings,
          ),
        );
        const height = Math.max(1, Math.min(Math.ceil(scrollHeight) || 1, settings.maxScreenshotHeight));
        const png = await printStep(
          page.screenshot({
            type: 'png',
            fullPage: true,
            clip: { x: 0, y: 0, width, height },
            animations: 'disabled',
            caret: 'hide',
            timeout: settings.printTimeoutMs,
          }),
          settings,
        );
        await page.context().close();
        const shot = { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
        const site: SiteFiles = new Map([
          ['index.html', Buffer.from(screenshotPage(shot.width, shot.height))],
          ['shot.png', png],
        ]);
        const pdf = await printSite(session, site, { printBackground: true, preferCSSPageSize: true }, job.log);
        return { pdf, height: shot.height };
      });
      return finish(job, pdf, nameFor(url), { width, height });
    },
  };

  return {
    settings,
    supervisor,
    tools,
    health: () => supervisor.health(),
    close: () => supervisor.close(),
  };
}

/**
 * A page that prints a screenshot at its own size: one PDF page per slice of at most `maxPagePx`, each
 * slice a named CSS page sized to it, so nothing is scaled, cropped or padded.
 */
export function screenshotPage(width: number, height: number): string {
  const slices: string[] = [];
  const pages: string[] = [];
  for (let top = 0, i = 0; top < height; top += maxPagePx, i++) {
    const h = Math.min(maxPagePx, height - top);
    pages.push(`@page s${i} { size: ${width}px ${h}px; margin: 0 }`);
    slices.push(
      `<div style="page: s${i}; width: ${width}px; height: ${h}px; background: url(shot.png) 0 -${top}px no-repeat"></div>`,
    );
  }
  return `<!doctype html><html><head><meta charset="utf-8"><style>
html, body { margin: 0; padding: 0 }
div { break-after: page; overflow: hidden }
div:last-child { break-after: auto }
${pages.join('\n')}
</style></head><body>${slices.join('')}</body></html>`;
}
