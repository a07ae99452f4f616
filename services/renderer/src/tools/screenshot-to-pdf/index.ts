import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { printStep } from '../../page.ts';
import { nameFor, type Printing } from '../../printing.ts';
import type { SiteFiles } from '../../site.ts';

/** The largest page Acrobat opens is 200 inches; taller screenshots are cut into several pages. */
const maxPagePx = 200 * 96;

/** The page at a web address as it looks on screen, whole, captured and printed at its own size. */
export async function run(job: ToolContext<ToolOptions<'screenshot-to-pdf'>>, r: Printing): Promise<ToolResult> {
  const url = await r.checkedUrl(job);
  const { width } = job.options;
  const { pdf, height } = await r.supervisor.run(job.signal, async (session) => {
    const page = await r.openWebPage(session, url, job, width, 'screen');
    const scrollHeight = Number(
      await printStep(
        page.evaluate(
          'Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)',
        ),
        r.settings,
      ),
    );
    const height = Math.max(1, Math.min(Math.ceil(scrollHeight) || 1, r.settings.maxScreenshotHeight));
    const png = await printStep(
      page.screenshot({
        type: 'png',
        fullPage: true,
        clip: { x: 0, y: 0, width, height },
        animations: 'disabled',
        caret: 'hide',
        timeout: r.settings.printTimeoutMs,
      }),
      r.settings,
    );
    await page.context().close();
    const shot = { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
    const site: SiteFiles = new Map([
      ['index.html', Buffer.from(screenshotPage(shot.width, shot.height))],
      ['shot.png', png],
    ]);
    const pdf = await r.printSite(session, site, { printBackground: true, preferCSSPageSize: true }, job.log);
    return { pdf, height: shot.height };
  });
  return r.finish(job, pdf, nameFor(url), { width, height });
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
