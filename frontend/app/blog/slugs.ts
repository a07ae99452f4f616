import { readdirSync } from 'node:fs';

/** The posts' slugs from their file names: what the build prerenders and the sitemap lists. */
export function postSlugs(): string[] {
  return readdirSync(new URL('../../content/blog/', import.meta.url))
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3))
    .sort();
}
