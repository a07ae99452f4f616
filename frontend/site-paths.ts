import { tools } from '@quire/catalog';
import { postSlugs } from './app/blog/slugs.ts';

/** A prerendered page; `listed` pages go into the sitemap (the others are marked noindex or redirect). */
export interface SitePath {
  path: string;
  listed: boolean;
}

/** Every page the build prerenders: the one list the prerenderer and the sitemap share. */
export function sitePaths(): SitePath[] {
  const listed = (path: string) => ({ path, listed: true });
  const unlisted = (path: string) => ({ path, listed: false });
  return [
    ...['/', '/blog', '/faq', '/contact', '/privacy-policy', '/terms', '/workflow-builder', '/login', '/signup'].map(
      listed,
    ),
    unlisted('/account'),
    ...tools.map((t) => listed(`/tools/${t.id}`)),
    // Aliases show their tool and point crawlers at the canonical address.
    ...tools.flatMap((t) => t.aliases.map((a) => unlisted(`/tools/${a}`))),
    ...postSlugs().map((slug) => listed(`/blog/${slug}`)),
    // The page nginx answers for every unknown address.
    unlisted('/404'),
  ];
}
