import type { Tool } from './tools.ts';
import { english } from '../i18n/dictionary.ts';
import { siteUrl } from './seo.ts';

const copy = english.tool;

export const website = {
  '@type': 'WebSite',
  name: 'Quire',
  url: siteUrl,
  description: english.site.description,
  potentialAction: {
    '@type': 'SearchAction',
    target: `${siteUrl}/blog?q={search_term_string}`,
    'query-input': 'required name=search_term_string',
  },
};

/** The tool page's three steps as a HowTo. */
export function howTo(tool: Tool) {
  return {
    '@type': 'HowTo',
    name: copy.howToName.replace('{{label}}', tool.name),
    description: tool.description,
    tool: { '@type': 'HowToTool', name: 'Quire' },
    step: [copy.step1, copy.step2, copy.step3].map((text, i) => ({
      '@type': 'HowToStep',
      position: i + 1,
      name: text,
      text,
      url: `${siteUrl}/tools/${tool.id}#step-${i + 1}`,
    })),
  };
}

/** The blog and its guides; `title` is the blog's own (its copy loads with its pages). */
export function blog(title: string, posts: { slug: string; title: string; date: string }[]) {
  return {
    '@type': 'Blog',
    name: `Quire ${title}`,
    url: `${siteUrl}/blog`,
    blogPost: posts.map((p) => ({
      '@type': 'BlogPosting',
      headline: p.title,
      url: `${siteUrl}/blog/${p.slug}`,
      datePublished: p.date,
    })),
  };
}

export function blogPosting(post: { slug: string; title: string; meta: string; date: string; thumbnail: string }) {
  return {
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.meta,
    datePublished: post.date,
    image: `${siteUrl}${post.thumbnail}`,
    url: `${siteUrl}/blog/${post.slug}`,
    mainEntityOfPage: `${siteUrl}/blog/${post.slug}`,
    author: { '@type': 'Organization', name: 'Quire' },
    publisher: { '@type': 'Organization', name: 'Quire' },
  };
}
