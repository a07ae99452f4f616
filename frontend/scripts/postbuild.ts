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
 * same place and order: classic scripts stay classic (and blocking), modules stay modules. Data blocks
 * such as JSON-LD stay inline; they never run.
 */
export async function externalizeInlineScripts(root: string): Promise<number> {
  const written = new Map<string, string>();
  let moved = 0;
  for (const file of (await filesUnder(root)).filter((f) => f.endsWith('.html'))) {
    const html = await readFile(file, 'utf8');
    const out = html.replace(scriptTag, (whole, attributes: string, body: string) => {
      const type = /\stype="([^"]*)"/.exec(attributes)?.[1];
      if (/\ssrc=/.test(attributes) || (type !== undefined && type !== 'module')) return whole;
      const name = `/assets/inline-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.js`;
      written.set(name, body);
      moved++;
      // A module keeps running after parsing, as it did inline; a classic script keeps blocking.
      return `<script${type ? ' type="module"' : ''} src="${name}"${attributes.replace(/\s(type|async)(="[^"]*")?/g, '')}></script>`;
    });
    await writeFile(file, out);
  }
  await Promise.all([...written].map(([name, body]) => writeFile(join(root, name), body)));
  return moved;
}

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
