import { Link, useLoaderData } from 'react-router';
import { PostCard } from '../components/PostCard.tsx';
import { ToolCard } from '../components/ToolCard.tsx';
import { postSummaries } from '../blog/posts.server.ts';
import { english } from '../i18n/dictionary.ts';
import { useT } from '../i18n/use-t.ts';
import { constants } from '@quire/catalog/site';
import { tools } from '../lib/tools.ts';
import { pageMeta } from '../lib/seo.ts';
import { website } from '../lib/structured-data.ts';
import { useUsage } from '../lib/usage.ts';

export function loader() {
  return { posts: postSummaries().slice(0, constants.homeBlogPreview) };
}

export function meta() {
  return pageMeta({ title: english.site.title, description: english.site.description, path: '/', jsonLd: [website] });
}

/** Most used first, by the catalog's counts, so live counts never reorder the page under the reader. */
const popular = [...tools].sort((a, b) => b.usage - a.usage);

export default function Home() {
  const t = useT();
  const { posts } = useLoaderData<typeof loader>();
  const usage = useUsage();
  return (
    <>
      <section className="hero">
        <h1>{t('home.heroTitle')}</h1>
        <p>{t('home.heroText')}</p>
        <a href="#popular" className="button primary">
          {t('home.heroCta')}
        </a>
      </section>
      <section className="page" id="popular" aria-labelledby="popular-title">
        <h2 id="popular-title">{t('home.popular')}</h2>
        <div className="grid tools-grid">
          {popular.map((tool) => (
            <ToolCard key={tool.id} tool={tool} uses={usage[tool.id] ?? tool.usage} />
          ))}
        </div>
      </section>
      <section className="page" aria-labelledby="blog-title">
        <h2 id="blog-title">{t('home.fromBlog')}</h2>
        <div className="grid posts-grid">
          {posts.map((post) => (
            <PostCard key={post.slug} post={post} />
          ))}
        </div>
        <p>
          <Link to="/blog" className="button">
            {t('home.readBlog')}
          </Link>
        </p>
      </section>
    </>
  );
}
