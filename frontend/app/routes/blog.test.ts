import { constants } from '@quire/catalog/site';
import { describe, expect, it } from 'vitest';
import { allPosts, postSummaries } from '../blog/posts.server.ts';
import { tools } from '../lib/tools.ts';
import { filterPosts } from './blog.tsx';

describe('blog posts', () => {
  const posts = postSummaries();

  it('has one guide per tool, slug <tool-id>-guide, related to its tool', () => {
    expect(posts.map((p) => p.slug).sort()).toEqual(tools.map((t) => `${t.id}-guide`).sort());
    for (const p of posts) expect(p.slug).toBe(`${p.relatedToolId}-guide`);
  });

  it('renders every guide to HTML with headings and links only to real tools', () => {
    for (const post of allPosts()) {
      expect(post.html, post.slug).toContain('<h2');
      for (const [, id] of post.html.matchAll(/href="\/tools\/([^"]+)"/g)) {
        expect(
          tools.some((t) => t.id === id),
          `${post.slug} links to ${id}`,
        ).toBe(true);
      }
      expect(post.html).not.toMatch(/<script/i);
    }
  });

  it('searches title or meta, case-insensitively, within a category', () => {
    const merge = filterPosts(posts, 'MERGE', 'All');
    expect(merge.length).toBeGreaterThan(0);
    for (const p of merge) expect(`${p.title} ${p.meta}`.toLowerCase()).toContain('merge');
    const extract = filterPosts(posts, '', 'Extract');
    expect(extract.length).toBeGreaterThan(0);
    expect(extract.every((p) => p.category === 'Extract')).toBe(true);
    expect(filterPosts(posts, 'no such words anywhere', 'All')).toEqual([]);
    expect(posts.length).toBeGreaterThan(constants.blogPageSize);
  });
});
