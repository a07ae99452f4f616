import type { MetaDescriptor } from 'react-router';

declare const __SITE_URL__: string;

/** The public address pages are known by (canonical links, sitemap, Open Graph). */
export const siteUrl = __SITE_URL__;

export interface PageMeta {
  title: string;
  description: string;
  path: string;
  image?: string;
  type?: 'website' | 'article';
  noindex?: boolean;
  jsonLd?: Record<string, unknown>[];
}

/** Title, description, canonical link, Open Graph, Twitter card and JSON-LD for one page. */
export function pageMeta(page: PageMeta): MetaDescriptor[] {
  const url = `${siteUrl}${page.path}`;
  return [
    { title: page.title },
    { name: 'description', content: page.description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:title', content: page.title },
    { property: 'og:description', content: page.description },
    { property: 'og:url', content: url },
    { property: 'og:type', content: page.type ?? 'website' },
    ...(page.image ? [{ property: 'og:image', content: `${siteUrl}${page.image}` }] : []),
    { property: 'og:site_name', content: 'Quire' },
    { name: 'twitter:card', content: 'summary_large_image' },
    ...(page.noindex ? [{ name: 'robots', content: 'noindex' }] : []),
    ...(page.jsonLd ?? []).map((data) => ({ 'script:ld+json': { '@context': 'https://schema.org', ...data } })),
  ];
}
