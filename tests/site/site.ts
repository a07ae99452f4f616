/**
 * What the site tests share: the stack's address, the blog's posts read from their Markdown sources
 * (the expected values, independent of the built pages), and small page helpers for the upload widget.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { waitUntil } from '../lib/browser.ts';
import { download } from '../lib/http.ts';
import { siteConfig } from '../../frontend/site.config.ts';

/** The public address the build wrote into canonical links, the sitemap and share links. */
export const siteUrl = siteConfig.siteUrl;

export interface PostSource {
  slug: string;
  title: string;
  meta: string;
  category: 'Convert' | 'Extract' | 'Edit';
  relatedToolId: string;
}

const blogDir = new URL('../../frontend/content/blog/', import.meta.url).pathname;

/** One YAML scalar as the posts write them: 'single', "double" or bare. */
function scalar(raw: string): string {
  const v = raw.trim();
  if (v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  if (v.startsWith('"') && v.endsWith('"')) return JSON.parse(v) as string;
  return v;
}

/** Every post's front matter, from content/blog/*.md. */
export function postSources(): PostSource[] {
  return readdirSync(blogDir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => {
      const source = readFileSync(join(blogDir, f), 'utf8');
      const head = /^---\n([\s\S]*?)\n---/.exec(source)?.[1] ?? '';
      const fields = Object.fromEntries(
        head
          .split('\n')
          .map((l) => /^(\w+):\s*(.*)$/.exec(l))
          .filter((m): m is RegExpExecArray => m !== null)
          .map((m) => [m[1]!, scalar(m[2]!)]),
      );
      return {
        slug: f.slice(0, -3),
        title: fields.title!,
        meta: fields.meta!,
        category: fields.category as PostSource['category'],
        relatedToolId: fields.relatedToolId!,
      };
    });
}

/** The upload widget's status line once it has settled (neither empty nor "Working…"). */
export async function settledStatus(page: Page, scope = '.widget', timeout = 90_000): Promise<string> {
  const selector = JSON.stringify(`${scope} .upload-status`);
  await waitUntil(
    page,
    // A status under way ends with an ellipsis: "Working…", "Step 2 of 4: Compress PDF…".
    `(() => { const t = document.querySelector(${selector})?.textContent ?? ''; return t !== '' && !t.endsWith('…'); })()`,
    timeout,
    `a final status in ${scope}`,
  );
  return (await page.locator(`${scope} .upload-status`).textContent()) ?? '';
}

/** Downloads the result the page links to, at once (results live a short time in the test stack). */
export async function downloadResult(page: Page, baseUrl: string, scope = '.widget') {
  const href = await page.locator(`${scope} .result a`).getAttribute('href');
  if (!href?.startsWith('/uploads/')) throw new Error(`unexpected download link ${href}`);
  const name = decodeURIComponent(href.slice('/uploads/'.length));
  return { ...(await download(baseUrl, name)), name };
}

/** Every JSON-LD block of the page, parsed. */
export async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((b) => JSON.parse(b) as Record<string, unknown>);
}

/** An element scrolled into full view (clear of the sticky header), and where it is once it stays put. */
export async function settledBox(page: Page, selector: string) {
  await page.evaluate(`document.querySelector(${JSON.stringify(selector)}).scrollIntoView({ block: 'center' })`);
  for (let last = ''; ; await page.waitForTimeout(250)) {
    const at = (await page.locator(selector).boundingBox())!;
    if (JSON.stringify(at) === last) return at;
    last = JSON.stringify(at);
  }
}

/** A page of a PDF as a reader shows it (its /Rotate applied), in grey at 20 dpi. */
export function renderPage(path: string, page = 1): { width: number; height: number; pixels: Buffer } {
  const pgm = execFileSync('pdftoppm', ['-r', '20', '-gray', '-f', String(page), '-l', String(page), path]);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error(`pdftoppm gave no PGM for ${path}`);
  return { width: Number(header[1]), height: Number(header[2]), pixels: pgm.subarray(header[0].length) };
}

/** How far apart two renderings are: the mean grey difference, 0 (same) to 255; Infinity if the sizes differ. */
export function renderDistance(a: ReturnType<typeof renderPage>, b: ReturnType<typeof renderPage>): number {
  if (a.width !== b.width || a.height !== b.height) return Infinity;
  let sum = 0;
  for (let i = 0; i < a.pixels.length; i++) sum += Math.abs(a.pixels[i]! - b.pixels[i]!);
  return sum / a.pixels.length;
}
