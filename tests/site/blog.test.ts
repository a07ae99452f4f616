/**
 * The blog: a post per tool, a page at a time with a numbered pager, search over title and
 * meta, the category filter, and an article's try-this-tool and share links. Expected values come from
 * the posts' Markdown sources, not from the built pages.
 */
import { constants, findTool, tools } from '@quire/catalog';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageWaitMs, useBrowser, waitUntil } from '../lib/browser.ts';
import { postSources, siteUrl, type PostSource } from './site.ts';

const site = useBrowser();

const posts = postSources();
const bySlug = new Map(posts.map((p) => [p.slug, p]));
/** The pager's pages and the cards each shows, from the number of tools and the page size. */
const pageSize = constants.blogPageSize;
const pageNumbers = Array.from({ length: Math.ceil(posts.length / pageSize) }, (_, i) => String(i + 1));
const cardsOn = (n: number) => Math.min(pageSize, posts.length - (n - 1) * pageSize);

/** The slugs of the cards shown, in order. */
async function shownSlugs(page: Page): Promise<string[]> {
  const hrefs = await page
    .locator('.posts-grid .post-card h3 a')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((h) => h.replace(/^\/blog\//, ''));
}

const pagerButtons = (page: Page) => page.locator('nav.pager button').allTextContents();

/** Waits until the grid shows `count` cards (the list updates after a state change). */
async function waitForCards(page: Page, count: number) {
  await waitUntil(
    page,
    `document.querySelectorAll('.posts-grid .post-card').length === ${count}`,
    pageWaitMs,
    `${count} cards`,
  );
}

function matching(query: string, category: PostSource['category'] | 'All' = 'All'): string[] {
  const q = query.trim().toLowerCase();
  return posts
    .filter((p) => category === 'All' || p.category === category)
    .filter((p) => !q || p.title.toLowerCase().includes(q) || p.meta.toLowerCase().includes(q))
    .map((p) => p.slug)
    .sort();
}

describe('blog list', () => {
  it('has a post per tool, a page of them at a time, and a pager with every page', async () => {
    expect(posts).toHaveLength(tools.length);
    expect(pageNumbers.length).toBeGreaterThan(1);
    const { page, errors } = await site.open('/blog');
    const first = await shownSlugs(page);
    expect(first).toHaveLength(cardsOn(1));
    expect(await pagerButtons(page)).toEqual(pageNumbers);
    expect(await page.locator('nav.pager button[aria-current="page"]').textContent()).toBe('1');

    const shown = [...first];
    let last: string[] = [];
    for (const n of pageNumbers.slice(1)) {
      await page.getByRole('button', { name: `Page ${n}`, exact: true }).click();
      // The pager and the grid change in one render: a page of as many cards as the last shows no change in count.
      const current = `document.querySelector('nav.pager button[aria-current="page"]')?.textContent === '${n}'`;
      await waitUntil(page, current, pageWaitMs, `page ${n} shown`);
      await waitForCards(page, cardsOn(Number(n)));
      last = await shownSlugs(page);
      expect(last).toHaveLength(cardsOn(Number(n)));
      expect(await page.locator('nav.pager button[aria-current="page"]').textContent()).toBe(n);
      shown.push(...last);
    }
    expect(shown.sort()).toEqual(posts.map((p) => p.slug).sort());
    // Each card shows the post's title and its category.
    const card = page.locator('.post-card').first();
    const post = bySlug.get(last[0]!)!;
    expect(await card.locator('h3').textContent()).toBe(post.title);
    expect(await card.locator('.eyebrow').textContent()).toBe(post.category);
    expect(errors).toEqual([]);
  });

  it('search matches title or meta, case-insensitively, and goes back to page 1', async () => {
    const { page, errors } = await site.open('/blog');
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await waitForCards(page, cardsOn(2));
    const search = page.getByRole('searchbox', { name: 'Search the guides' });

    const merge = matching('merge');
    expect(merge).toContain('pdf-merge-guide');
    await search.fill('MERGE');
    await waitForCards(page, merge.length);
    expect((await shownSlugs(page)).sort()).toEqual(merge);
    expect(await page.locator('nav.pager').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();

    // A phrase found only in some posts' meta text, never in a title.
    const phrase = 'NO SIGN-UP';
    const byMeta = matching(phrase);
    expect(byMeta.length).toBeGreaterThan(0);
    expect(byMeta.every((slug) => !bySlug.get(slug)!.title.toLowerCase().includes('sign-up'))).toBe(true);
    await search.fill(phrase);
    await waitForCards(page, byMeta.length);
    expect((await shownSlugs(page)).sort()).toEqual(byMeta);

    await search.fill('zzzz-nothing');
    await page.getByText('No guides match your search.').waitFor();
    expect(await page.locator('.post-card').count()).toBe(0);

    await search.fill('');
    await waitForCards(page, cardsOn(1));
    expect(await pagerButtons(page)).toEqual(pageNumbers);
    expect(errors).toEqual([]);
  });

  it('the Extract category shows only Extract posts, and changing category goes back to page 1', async () => {
    const { page, errors } = await site.open('/blog');
    expect(await page.locator('[role="group"] button').allTextContents()).toEqual([
      'All',
      'Convert',
      'Extract',
      'Edit',
    ]);
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await waitForCards(page, cardsOn(2));

    const extract = matching('', 'Extract');
    expect(extract.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Extract', exact: true }).click();
    await waitForCards(page, extract.length);
    expect((await shownSlugs(page)).sort()).toEqual(extract);
    expect(new Set(await page.locator('.post-card .eyebrow').allTextContents())).toEqual(new Set(['Extract']));
    expect(await page.getByRole('button', { name: 'Extract', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();

    // Search within a category.
    const search = page.getByRole('searchbox', { name: 'Search the guides' });
    await search.fill('excel');
    const both = matching('excel', 'Extract');
    await waitForCards(page, both.length);
    expect((await shownSlugs(page)).sort()).toEqual(both);

    await search.fill('');
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await waitForCards(page, cardsOn(1));
    expect(errors).toEqual([]);
  });
});

describe('article', () => {
  it('links to its tool and shares its own address on x.com, Facebook and LinkedIn', async () => {
    const post = bySlug.get('pdf-merge-guide')!;
    const { page, errors } = await site.open(`/blog/${post.slug}`);
    expect(await page.locator('main h1').textContent()).toBe(post.title);
    const url = `${siteUrl}/blog/${post.slug}`;
    const encoded = encodeURIComponent(url);

    const share = page.getByRole('navigation', { name: 'Share this guide' }).locator('a');
    const hrefs = await share.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs).toHaveLength(3);
    expect(hrefs.map((h) => new URL(h).host)).toEqual(['x.com', 'www.facebook.com', 'www.linkedin.com']);
    for (const href of hrefs) expect(href).toContain(encoded);
    expect(new URL(hrefs[0]!).searchParams.get('url')).toBe(url);
    expect(new URL(hrefs[1]!).searchParams.get('u')).toBe(url);
    expect(new URL(hrefs[2]!).searchParams.get('url')).toBe(url);
    for (const i of [0, 1, 2]) {
      expect(await share.nth(i).getAttribute('target')).toBe('_blank');
      expect(await share.nth(i).getAttribute('rel')).toContain('noopener');
    }

    const tryIt = page.getByRole('link', { name: 'Try Merge PDF now', exact: true });
    expect(await tryIt.getAttribute('href')).toBe('/tools/pdf-merge');
    await tryIt.click();
    await page.getByRole('heading', { level: 1, name: 'Convert with Merge PDF', exact: true }).waitFor();
    expect(page.url()).toBe(`${site.base}/tools/pdf-merge`);
    expect(errors).toEqual([]);
  });

  it('every article links to its own tool and carries the three share links', async () => {
    const { page } = await site.openBlank({ javaScriptEnabled: false });
    for (const post of posts) {
      const res = await page.goto(`${site.base}/blog/${post.slug}`);
      expect(res?.status(), post.slug).toBe(200);
      const tool = findTool(post.relatedToolId)!;
      const link = page.getByRole('link', { name: `Try ${tool.name} now`, exact: true });
      expect(await link.getAttribute('href'), post.slug).toBe(`/tools/${tool.id}`);
      const encoded = encodeURIComponent(`${siteUrl}/blog/${post.slug}`);
      const hrefs = await page.locator('nav.share a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs, post.slug).toEqual([
        expect.stringMatching(new RegExp(`^https://x\\.com/intent/tweet\\?url=${escapeRe(encoded)}&`)),
        `https://www.facebook.com/sharer/sharer.php?u=${encoded}`,
        `https://www.linkedin.com/sharing/share-offsite/?url=${encoded}`,
      ]);
    }
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
