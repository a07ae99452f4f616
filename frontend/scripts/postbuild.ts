/**
 * What the build does to the prerendered pages before nginx serves them: inline scripts moved to files
 * (so the Content-Security-Policy can forbid inline script), sitemap and robots.txt, and gzip copies.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { SitePath } from '../site-paths.ts';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

const scriptTag = /<script([^>]*)>([\s\S]*?)<\/script>/g;

/**
 * Moves every executable inline script of every page into a file named by its content's hash, in the
 * same order. Classic scripts become deferred: deferred and module scripts run in document order once
 * the page is parsed, so the hydration data still comes before the app, and no script holds up the
 * first paint. Data blocks such as JSON-LD stay inline; they never run.
 */
export async function externalizeInlineScripts(root: string): Promise<number> {
  const written = new Map<string, string>();
  let moved = 0;
  for (const file of (await filesUnder(root)).filter((f) => f.endsWith('.html'))) {
    const html = await readFile(file, 'utf8');
    const out = html.replace(scriptTag, (whole, attributes: string, body: string) => {
      const type = /\stype="([^"]*)"/.exec(attributes)?.[1];
      if (/\ssrc=|\sid="theme"/.test(attributes) || (type !== undefined && type !== 'module')) return whole;
      const name = `/assets/inline-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.js`;
      written.set(name, body);
      moved++;
      const rest = attributes.replace(/\s(type|async)(="[^"]*")?/g, '');
      return `<script${type ? ' type="module"' : ' defer'} src="${name}"${rest}></script>`;
    });
    await writeFile(file, out);
  }
  await Promise.all([...written].map(([name, body]) => writeFile(join(root, name), body)));
  return moved;
}

/**
 * The hash sources of the inline scripts left in the pages (the theme script, kept inline so that a
 * dark page never flashes light), for the Content-Security-Policy. Written to `.csp-script-hashes`.
 */
export async function writeScriptHashes(root: string): Promise<string[]> {
  const hashes = new Set<string>();
  for (const file of (await filesUnder(root)).filter((f) => f.endsWith('.html'))) {
    for (const [whole, attributes, body] of (await readFile(file, 'utf8')).matchAll(scriptTag)) {
      if (/\ssrc=|\stype="(?!module")/.test(attributes!) || !body) continue;
      if (!/\sid="theme"/.test(attributes!))
        throw new Error(`${file}: an unexpected inline script: ${whole.slice(0, 80)}`);
      hashes.add(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    }
  }
  await writeFile(join(root, cspHashesFile), [...hashes].join(' '));
  return [...hashes];
}

/** Where the build leaves the inline scripts' hashes for nginx's configuration. */
export const cspHashesFile = '.csp-script-hashes';

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

export async function writeSeoFiles(root: string, siteUrl: string, paths: SitePath[]): Promise<void> {
  const urls = paths
    .filter((p) => p.listed)
    .map((p) => `  <url><loc>${escapeXml(`${siteUrl}${p.path}`)}</loc></url>`)
    .join('\n');
  await writeFile(
    join(root, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  );
  await writeFile(
    join(root, 'robots.txt'),
    `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /uploads/\nDisallow: /account\n\nSitemap: ${siteUrl}/sitemap.xml\n`,
  );
}

const compressible = /\.(html|js|css|svg|xml|txt|json|data)$/;

/** Writes a maximally compressed `.gz` beside each text file, which nginx sends as it is (gzip_static). */
export async function precompress(root: string): Promise<number> {
  const files = (await filesUnder(root)).filter((f) => compressible.test(f));
  await Promise.all(
    files.map(async (f) => writeFile(`${f}.gz`, await promisify(gzip)(await readFile(f), { level: 9 }))),
  );
  return files.length;
}
