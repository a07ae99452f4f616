/**
 * Every route of the site: the prerendered HTML (scripts off) carries the page's h1, title,
 * canonical link, description and structured data; the hydrated page shows the same h1 without a
 * console error (hydration mismatches would show there). Unknown tools, posts and paths are real 404s,
 * and the sitemap and robots.txt list what crawlers should see.
 */
import { tools } from '@quire/catalog';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser, waitUntil } from '../lib/browser.ts';
import { jsonLd, postSources, siteUrl } from './site.ts';

const site = useBrowser();

const posts = postSources();

interface Route {
  path: string;
  title: string;
  h1: string;
  /** The exact description when the test knows it; otherwise any real sentence. */
  description?: string;
  /** The JSON-LD @type the page must carry. */
  ld?: string;
  noindex?: boolean;
  /** Where the canonical link points, when not at the page itself. */
  canonical?: string;
}

const staticRoutes: Route[] = [
  {
    path: '/',
    title: 'Quire – Free online PDF tools',
    h1: 'Every PDF tool you need, free',
    ld: 'WebSite',
  },
  { path: '/blog', title: 'Blog – Quire', h1: 'Blog', ld: 'Blog' },
  { path: '/faq', title: 'Frequently Asked Questions – Quire', h1: 'Frequently Asked Questions', ld: 'FAQPage' },
  { path: '/contact', title: 'Contact – Quire', h1: 'Contact' },
  { path: '/privacy-policy', title: 'Privacy Policy – Quire', h1: 'Privacy Policy' },
  { path: '/terms', title: 'Terms & Conditions – Quire', h1: 'Terms & Conditions' },
  { path: '/workflow-builder', title: 'Workflow Builder – Quire', h1: 'Workflow Builder' },
  { path: '/login', title: 'Login – Quire', h1: 'Login' },
  { path: '/signup', title: 'Create your account – Quire', h1: 'Create your account' },
  { path: '/account', title: 'Account – Quire', h1: 'Account', noindex: true },
];

const toolRoutes: Route[] = tools.map((t) => ({
  path: `/tools/${t.id}`,
  title: `${t.name} – Free PDF Tool | Quire`,
  h1: `Convert with ${t.name}`,
  description: `${t.description} Yes, we do not store your files. All processing is done in-memory.`,
  ld: 'HowTo',
}));

const aliasRoutes: Route[] = tools.flatMap((t) =>
  t.aliases.map((a) => ({
    path: `/tools/${a}`,
    title: `${t.name} – Free PDF Tool | Quire`,
    h1: `Convert with ${t.name}`,
    ld: 'HowTo',
    canonical: `/tools/${t.id}`,
  })),
);

const postRoutes: Route[] = posts.map((p) => ({
  path: `/blog/${p.slug}`,
  title: `${p.title} | Quire`,
  h1: p.title,
  description: p.meta,
  ld: 'BlogPosting',
}));

async function robots(page: Page): Promise<string | null> {
  const meta = page.locator('meta[name="robots"]');
  return (await meta.count()) === 0 ? null : meta.getAttribute('content');
}

async function head(page: Page) {
  return {
    title: await page.title(),
    h1: (await page.locator('h1').allTextContents()).map((s) => s.trim()),
    canonical: await page.locator('link[rel="canonical"]').getAttribute('href'),
    canonicals: await page.locator('link[rel="canonical"]').count(),
    description: await page.locator('meta[name="description"]').getAttribute('content'),
    robots: await robots(page),
    ld: await jsonLd(page),
  };
}

/** The prerendered page, as a crawler without scripts sees it. */
async function checkPrerendered(route: Route) {
  const { page } = await site.openBlank({ javaScriptEnabled: false });
  const res = await page.goto(`${site.base}${route.path}`);
  expect(res?.status(), route.path).toBe(200);
  expect(res?.headers()['content-type']).toMatch(/^text\/html/);
  const h = await head(page);
  expect(h.title).toBe(route.title);
  expect(h.h1).toEqual([route.h1]);
  expect(h.canonicals).toBe(1);
  expect(h.canonical).toBe(`${siteUrl}${route.canonical ?? route.path}`);
  if (route.description) expect(h.description).toBe(route.description);
  else expect(h.description?.length ?? 0).toBeGreaterThan(30);
  expect(h.robots).toBe(route.noindex ? 'noindex' : null);
  const types = h.ld.map((d) => d['@type']);
  if (route.ld) expect(types).toContain(route.ld);
  for (const d of h.ld) expect(d['@context']).toBe('https://schema.org');
  return h;
}

/** The hydrated page: same h1, no console or page error. */
async function checkHydrated(route: Route) {
  const { page, errors, status } = await site.open(route.path);
  expect(status).toBe(200);
  expect((await page.locator('h1').allTextContents()).map((s) => s.trim())).toEqual([route.h1]);
  expect(await page.title()).toBe(route.title);
  expect(errors).toEqual([]);
}

describe('prerendered pages', () => {
  it.each(staticRoutes)('$path', async (route) => {
    await checkPrerendered(route);
    await checkHydrated(route);
  });

  it.each(toolRoutes)('$path', async (route) => {
    const h = await checkPrerendered(route);
    // The HowTo is the page's three steps.
    const howTo = h.ld.find((d) => d['@type'] === 'HowTo') as { step: { name: string; url: string }[] };
    expect(howTo.step.map((s) => s.name)).toEqual([
      'Upload your file to begin',
      'We process your file in real-time',
      'Download or share your converted file',
    ]);
    expect(howTo.step[0]!.url).toBe(`${siteUrl}${route.path}#step-1`);
    // The related guide link goes to a post that exists.
    const id = route.path.slice('/tools/'.length);
    expect(posts.map((p) => p.slug)).toContain(`${id}-guide`);
    await checkHydrated(route);
  });

  it.each(postRoutes)('$path', async (route) => {
    const h = await checkPrerendered(route);
    const posting = h.ld.find((d) => d['@type'] === 'BlogPosting')!;
    expect(posting.headline).toBe(route.h1);
    expect(posting.url).toBe(`${siteUrl}${route.path}`);
    await checkHydrated(route);
  });

  it('the home page links to the blog and shows its first three posts; the blog lists every post', async () => {
    const home = await checkPrerendered(staticRoutes[0]!);
    expect(home.ld.find((d) => d['@type'] === 'WebSite')?.url).toBe(siteUrl);
    const blog = await checkPrerendered(staticRoutes[1]!);
    const listed = (blog.ld.find((d) => d['@type'] === 'Blog') as { blogPost: { url: string }[] }).blogPost;
    expect(listed.map((p) => p.url).sort()).toEqual(posts.map((p) => `${siteUrl}/blog/${p.slug}`).sort());

    const { page, errors } = await site.open('/');
    expect(await page.locator('.post-card').count()).toBe(3);
    expect(await page.locator('main a[href="/blog"]').count()).toBeGreaterThan(0);
    // Tool cards: a link to the tool with its name and "<count> uses".
    const card = page.locator('a.tool-card[href="/tools/jpg-to-pdf"]');
    expect(await card.locator('.tool-name').textContent()).toBe('JPG to PDF');
    expect(await card.locator('.tool-uses').textContent()).toMatch(/^[\d,]+ uses$/);
    expect(await page.locator('main a.tool-card').count()).toBe(tools.length);
    expect(errors).toEqual([]);
  });
});

describe('header and footer', () => {
  it('the header menus, the footer columns, the social proof and the fixed banner follow the spec', async () => {
    const { page, errors } = await site.open('/faq');
    const menus = page.locator('header .menus > ul > li');
    expect(await menus.locator('> button').allTextContents()).toEqual(['Convert', 'Extract', 'Edit', 'More']);
    const menuLinks = async (i: number) =>
      menus
        .nth(i)
        .locator('.dropdown a')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')!.slice('/tools/'.length)));
    // The spec's menus first and in its order, then the rest of each category; the categories without a
    // menu of their own (Security, Utility, Preview) under More. Every tool is in exactly one.
    const spec = [
      ['jpg-to-pdf', 'word-to-pdf', 'excel-to-pdf', 'ppt-to-pdf', 'html-to-pdf'],
      ['pdf-to-word', 'pdf-to-excel', 'pdf-to-ppt', 'pdf-to-text', 'pdf-to-images'],
      ['pdf-merge', 'pdf-split', 'pdf-compress', 'pdf-unlock', 'add-watermark', 'rotate-pdf', 'pdf-page-remove'],
    ];
    const listed = await Promise.all([0, 1, 2, 3].map(menuLinks));
    spec.forEach((ids, i) => expect(listed[i]!.slice(0, ids.length)).toEqual(ids));
    const category = ['Convert', 'Extract', 'Edit'];
    category.forEach((c, i) =>
      expect(listed[i]!.slice(spec[i]!.length)).toEqual(
        tools.filter((t) => t.category === c && !spec[i]!.includes(t.id)).map((t) => t.id),
      ),
    );
    expect(listed[3]).toEqual(
      ['Security', 'Utility', 'Preview'].flatMap((c) => tools.filter((t) => t.category === c).map((t) => t.id)),
    );
    expect(listed.flat().sort()).toEqual(tools.map((t) => t.id).sort());
    for (const id of ['image-to-pdf', 'pdf-metadata-cleaner', 'pdf-to-html', 'pdf-from-url', 'screenshot-to-pdf']) {
      expect(listed.flat(), id).toContain(id);
    }
    // The menus open on hover.
    const firstMenu = menus.nth(0);
    expect(await firstMenu.locator('.dropdown').isVisible()).toBe(false);
    await firstMenu.hover();
    await firstMenu.locator('.dropdown a').first().waitFor({ state: 'visible' });

    const column = (heading: string) =>
      page.locator('footer .footer-columns > div', {
        has: page.getByRole('heading', { name: heading, exact: true }),
      });
    expect(await column('Tools').locator('a').allTextContents()).toEqual([
      'JPG to PDF',
      'Merge PDF',
      'Compress PDF',
      'PDF to Word',
      'HTML to PDF',
      'OCR PDF',
    ]);
    expect(await column('Company').locator('a').allTextContents()).toEqual([
      'Blog',
      'FAQ',
      'Contact',
      'Privacy Policy',
      'Terms & Conditions',
    ]);
    expect(await column('Account').locator('a').allTextContents()).toEqual([
      'Login',
      'Sign Up',
      'Dashboard',
      'Workflow Builder',
    ]);
    const footer = (await page.locator('footer').textContent()) ?? '';
    expect(footer).toContain('10,000+ users');
    expect(footer).toContain('4.9/5');
    const banner = page.locator('footer .banner');
    expect(await page.evaluate(`getComputedStyle(document.querySelector('footer .banner')).position`)).toBe('fixed');
    expect(await banner.getByRole('link').getAttribute('href')).toMatch(/^\/tools\//);
    expect(await banner.isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('addresses with a query string', () => {
  // The pages are prerendered without one; React must hydrate them all the same (no error #418).
  it.each([
    '/blog?q=compress',
    '/blog?page=2',
    '/blog?q=pdf&category=Edit&page=2',
    '/?q=compress',
    '/tools/pdf-compress?utm_source=newsletter',
    '/tools/watermark-pdf?x=1',
    '/blog/pdf-merge-guide?ref=home',
    '/faq?q=1',
    '/workflow-builder?steps=pdf-compress',
    '/login?next=%2Faccount',
    '/account?tab=history',
  ])('%s hydrates without an error', async (path) => {
    const { page, errors } = await site.open(path);
    await page.evaluate(`new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)))`);
    expect(errors.filter((e) => /418|hydrat/i.test(e))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('/blog?q=compress shows the search it names once hydrated', async () => {
    const { page, errors } = await site.open('/blog?q=compress');
    await waitUntil(page, `document.querySelector('.blog-controls input')?.value === 'compress'`, 60_000, 'the query');
    expect(await page.getByRole('searchbox', { name: 'Search the guides' }).inputValue()).toBe('compress');
    const expected = posts.filter((p) => `${p.title} ${p.meta}`.toLowerCase().includes('compress'));
    expect(await page.locator('.post-card').count()).toBe(expected.length);
    expect(errors).toEqual([]);
  });
});

describe('aliases and saved workflows', () => {
  it.each(aliasRoutes)('$path shows its tool and ends at the canonical address', async (route) => {
    await checkPrerendered(route);
    const { page, errors, status } = await site.open(route.path);
    expect(status).toBe(200);
    await page.waitForURL(`${site.base}${route.canonical}`);
    expect(await page.locator('h1').textContent()).toBe(route.h1);
    expect(errors).toEqual([]);
  });

  it('/workflow/{slug} is served for any steps and marked noindex', async () => {
    const { page, errors, status } = await site.open('/workflow/pdf-compress,pdf-unlock');
    expect(status).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Saved workflow');
    expect(await page.title()).toBe('Saved workflow – Quire');
    expect(await robots(page)).toBe('noindex');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(
      `${siteUrl}/workflow/pdf-compress,pdf-unlock`,
    );
    expect(errors).toEqual([]);
  });
});

describe('not found', () => {
  const open404 = (path: string) => site.open(path, { expect404: true });

  it('an unknown tool shows "Unknown Tool" with HTTP 404', async () => {
    const { page, errors, status } = await open404('/tools/no-such-tool');
    expect(status).toBe(404);
    expect(await page.locator('h1').textContent()).toContain('Unknown Tool');
    expect(await page.title()).toBe('Unknown Tool – Quire');
    expect(await robots(page)).toBe('noindex');
    // No upload widget for a tool that does not exist.
    expect(await page.locator('.widget').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("an unknown post shows '404 – Blog not found' with HTTP 404", async () => {
    const { page, errors, status } = await open404('/blog/no-such-post');
    expect(status).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('404 – Blog not found');
    expect(await page.title()).toBe('404 – Blog not found');
    expect(await robots(page)).toBe('noindex');
    expect(await page.locator('main a[href="/blog"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it.each(['/no-such-page', '/a/b/c', '/blogs', '/tools', '/index.php?x=1'])(
    '%s is the 404 page: Page Not Found, noindex, a link home, HTTP 404',
    async (path) => {
      const { page, errors, status } = await open404(path);
      expect(status).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('Page Not Found');
      expect(await page.title()).toBe('Page Not Found');
      expect(await robots(page)).toBe('noindex');
      const home = page.locator('main a[href="/"]');
      expect(await home.count()).toBe(1);
      expect(await home.textContent()).toBe('Go to the home page');
      expect(errors).toEqual([]);
      // The link works (client-side) and leads home.
      await home.click();
      await page.getByRole('heading', { level: 1, name: 'Every PDF tool you need, free', exact: true }).waitFor();
      expect(page.url()).toBe(`${site.base}/`);
    },
  );

  // Site bug: nginx's `try_files $uri $uri.html` serves the files behind the 404 page as pages of their own,
  // with 200 (soft 404s). The spec: any path that is not a route is a 404.
  it.each(['/404', '/404.html', '/__spa-fallback.html'])('%s is not a page of its own: HTTP 404', async (path) => {
    const res = await fetch(`${site.base}${path}`);
    expect(res.status).toBe(404);
  });

  it('the 404 page is prerendered too (no script needed to read it)', async () => {
    const { page } = await site.openBlank({ javaScriptEnabled: false, expect404: true });
    const res = await page.goto(`${site.base}/no-such-page`);
    expect(res?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Page Not Found');
    expect(await robots(page)).toBe('noindex');
  });
});

describe('sitemap.xml and robots.txt', () => {
  it('the sitemap lists every page, tool and post, and nothing unlisted', async () => {
    const res = await fetch(`${site.base}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml[^>]*\?>\s*<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
    expect(new Set(locs).size).toBe(locs.length);
    const expected = [
      ...staticRoutes.filter((r) => !r.noindex).map((r) => r.path),
      ...toolRoutes.map((r) => r.path),
      ...postRoutes.map((r) => r.path),
    ].map((p) => `${siteUrl}${p}`);
    expect(locs.sort()).toEqual(expected.sort());
    expect(locs.some((l) => l.endsWith('/404'))).toBe(false);
    expect(locs).not.toContain(`${siteUrl}/tools/watermark-pdf`);
    expect(locs).not.toContain(`${siteUrl}/account`);
  });

  it('robots.txt names the sitemap', async () => {
    const res = await fetch(`${site.base}/robots.txt`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toContain(`Sitemap: ${siteUrl}/sitemap.xml`);
  });
});
