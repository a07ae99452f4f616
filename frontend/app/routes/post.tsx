import { findTool } from '../lib/tools.ts';
import { data, isRouteErrorResponse, Link, useLoaderData, useRouteError } from 'react-router';
import { findPost } from '../blog/posts.server.ts';
import type { Post } from '../blog/types.ts';
import { blog } from '../i18n/en/blog.ts';
import { toolKey, useLanguageCode, useT } from '../i18n/use-t.ts';
import { pageMeta, siteUrl } from '../lib/seo.ts';
import { blogPosting } from '../lib/structured-data.ts';

export function loader({ params }: { params: { slug?: string } }) {
  const post = findPost(params.slug ?? '');
  if (!post) throw data(null, { status: 404 });
  return { post };
}

/** A post that was not prerendered does not exist: its data file is missing. */
export async function clientLoader({ serverLoader }: { serverLoader: () => Promise<{ post: Post }> }) {
  try {
    return await serverLoader();
  } catch {
    throw data(null, { status: 404 });
  }
}

export function meta({ data: loaded, params }: { data?: { post: Post }; params: { slug?: string } }) {
  if (!loaded) {
    return pageMeta({
      title: blog.notFound,
      description: blog.description,
      path: `/blog/${params.slug}`,
      noindex: true,
    });
  }
  const { post } = loaded;
  return pageMeta({
    title: `${post.title} | Quire`,
    description: post.meta,
    path: `/blog/${post.slug}`,
    image: post.thumbnail,
    type: 'article',
    jsonLd: [blogPosting(post)],
  });
}

function ShareLinks({ post }: { post: Post }) {
  const t = useT();
  const url = encodeURIComponent(`${siteUrl}/blog/${post.slug}`);
  const title = encodeURIComponent(post.title);
  const networks = [
    { name: 'X', href: `https://x.com/intent/tweet?url=${url}&text=${title}` },
    { name: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${url}` },
    { name: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${url}` },
  ];
  return (
    <nav aria-label={t('blog.share')} className="share">
      <span>{t('blog.share')}:</span>
      {networks.map((n) => (
        <a
          key={n.name}
          href={n.href}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('blog.shareOn', { network: n.name })}
        >
          {n.name}
        </a>
      ))}
    </nav>
  );
}

export default function PostPage() {
  const t = useT();
  const language = useLanguageCode();
  const { post } = useLoaderData<typeof loader>();
  const tool = findTool(post.relatedToolId);
  const date = new Date(`${post.date}T00:00:00Z`).toLocaleDateString(language, { dateStyle: 'long', timeZone: 'UTC' });
  return (
    <article className="page narrow post">
      <p>
        <Link to="/blog">← {t('blog.back')}</Link>
      </p>
      <p className="eyebrow">{t(`categories.${post.category}`)}</p>
      <h1>{post.title}</h1>
      <p className="muted">{t('blog.published', { date })}</p>
      <img src={post.thumbnail} alt="" width="1200" height="630" className="post-image" fetchPriority="high" />
      {/* Rendered at build time from the project's own Markdown files. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: post.html }} />
      {tool && (
        <p>
          <Link to={`/tools/${tool.id}`} className="button primary">
            {t('blog.tryTool', { label: t(toolKey(tool.id, 'name')) })}
          </Link>
        </p>
      )}
      <ShareLinks post={post} />
    </article>
  );
}

export function ErrorBoundary() {
  const t = useT();
  const error = useRouteError();
  return (
    <section className="page narrow center">
      <h1>{isRouteErrorResponse(error) && error.status === 404 ? t('blog.notFound') : t('errors.internal')}</h1>
      <p>
        <Link to="/blog">{t('blog.back')}</Link>
      </p>
    </section>
  );
}
