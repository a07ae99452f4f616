/**
 * The blog's posts: Markdown files with front matter in content/blog, read and rendered at build time.
 * A post with a bad field fails the build rather than reaching a page.
 */
import { blogCategories } from '@quire/catalog/site';
import { findTool } from '../lib/tools.ts';
import matter from 'gray-matter';
import { marked } from 'marked';
import { z } from 'zod';
import type { Post, PostSummary } from './types.ts';

export type { Post, PostSummary };

const frontMatter = z.object({
  title: z.string().min(10).max(70),
  meta: z.string().min(50).max(160),
  summary: z.string().min(20).max(300),
  category: z.enum(blogCategories.filter((c) => c !== 'All') as ['Convert', 'Extract', 'Edit']),
  relatedToolId: z.string().refine((id) => findTool(id)?.id === id, 'must be a canonical tool id'),
  date: z.coerce.date(),
});

// Bundled at build time, so the prerenderer needs no path to the sources.
const sources = import.meta.glob<string>('../../content/blog/*.md', { query: '?raw', import: 'default', eager: true });

function parse(file: string, source: string): Post {
  const slug = file.replace(/^.*\//, '').replace(/\.md$/, '');
  const { data, content } = matter(source);
  const fields = frontMatter.safeParse(data);
  if (!fields.success) throw new Error(`content/blog/${slug}.md: ${z.prettifyError(fields.error)}`);
  return {
    slug,
    ...fields.data,
    date: fields.data.date.toISOString().slice(0, 10),
    thumbnail: `/blog/${slug}.svg`,
    html: marked.parse(content, { async: false }),
  };
}

/** Every post, newest first. */
export function allPosts(): Post[] {
  return Object.entries(sources)
    .map(([file, source]) => parse(file, source))
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}

export function postSummaries(): PostSummary[] {
  return allPosts().map(({ html: _html, ...summary }) => summary);
}

export function findPost(slug: string): Post | undefined {
  return allPosts().find((p) => p.slug === slug);
}
