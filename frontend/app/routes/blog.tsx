import { blogCategories, constants } from '@quire/catalog/site';
import { useLoaderData, useSearchParams } from 'react-router';
import { PostCard } from '../components/PostCard.tsx';
import { postSummaries } from '../blog/posts.server.ts';
import type { PostSummary } from '../blog/types.ts';
import { blog } from '../i18n/en/blog.ts';
import { useT } from '../i18n/use-t.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { pageMeta } from '../lib/seo.ts';
import { blog as blogJsonLd } from '../lib/structured-data.ts';

export function loader() {
  return { posts: postSummaries() };
}

export function meta({ data }: { data?: { posts: PostSummary[] } }) {
  return pageMeta({
    title: `${blog.title} – Quire`,
    description: blog.description,
    path: '/blog',
    jsonLd: [blogJsonLd(blog.title, data?.posts ?? [])],
  });
}

type Category = (typeof blogCategories)[number];

/** Title or meta text, case-insensitive, within a category. */
export function filterPosts(posts: PostSummary[], query: string, category: Category): PostSummary[] {
  const q = query.trim().toLowerCase();
  return posts.filter(
    (p) =>
      (category === 'All' || p.category === category) &&
      (!q || p.title.toLowerCase().includes(q) || p.meta.toLowerCase().includes(q)),
  );
}

export default function Blog() {
  const t = useT();
  const { posts } = useLoaderData<typeof loader>();
  const [search, setParams] = useSearchParams();
  // The page was prerendered without a query: it applies one (?q=, ?page=) once hydrated.
  const params = useHydrated() ? search : new URLSearchParams();
  const query = params.get('q') ?? '';
  const category = (blogCategories as readonly string[]).includes(params.get('category') ?? '')
    ? (params.get('category') as Category)
    : 'All';
  const found = filterPosts(posts, query, category);
  const pages = Math.max(1, Math.ceil(found.length / constants.blogPageSize));
  const page = Math.min(pages, Math.max(1, Number(params.get('page')) || 1));
  const shown = found.slice((page - 1) * constants.blogPageSize, page * constants.blogPageSize);

  // Any change of search or category goes back to page 1.
  function update(next: { q?: string; category?: Category; page?: number }) {
    const merged = { q: query, category, page: 1, ...next };
    const search = new URLSearchParams();
    if (merged.q) search.set('q', merged.q);
    if (merged.category !== 'All') search.set('category', merged.category);
    if (merged.page > 1) search.set('page', String(merged.page));
    setParams(search, { replace: true, preventScrollReset: true });
  }

  return (
    <div className="page">
      <h1>{t('blog.title')}</h1>
      <p>{t('blog.description')}</p>
      <div className="blog-controls">
        <label>
          <span className="visually-hidden">{t('blog.searchLabel')}</span>
          <input
            type="search"
            value={query}
            placeholder={t('blog.searchPlaceholder')}
            onChange={(e) => update({ q: e.target.value })}
          />
        </label>
        <div role="group" aria-label={t('blog.filterLabel')} className="chips">
          {blogCategories.map((c) => (
            <button
              key={c}
              type="button"
              className="chip"
              aria-pressed={c === category}
              onClick={() => update({ category: c })}
            >
              {t(`categories.${c}`)}
            </button>
          ))}
        </div>
      </div>
      {shown.length === 0 ? (
        <p>{t('blog.none')}</p>
      ) : (
        <div className="grid posts-grid">
          {shown.map((post) => (
            <PostCard key={post.slug} post={post} />
          ))}
        </div>
      )}
      {pages > 1 && (
        <nav aria-label={t('blog.pager')} className="pager">
          {Array.from({ length: pages }, (_, i) => i + 1).map((n) => (
            <button
              key={n}
              type="button"
              aria-current={n === page ? 'page' : undefined}
              aria-label={t('blog.page', { page: n })}
              onClick={() => update({ page: n })}
            >
              {n}
            </button>
          ))}
        </nav>
      )}
    </div>
  );
}
