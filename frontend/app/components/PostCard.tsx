import { Link } from 'react-router';
import type { PostSummary } from '../blog/types.ts';
import { useT } from '../i18n/use-t.ts';

export function PostCard({ post }: { post: PostSummary }) {
  const t = useT();
  return (
    <article className="card post-card">
      <img src={post.thumbnail} alt="" width="1200" height="630" loading="lazy" />
      <div>
        <p className="eyebrow">{t(`categories.${post.category}`)}</p>
        <h3>
          <Link to={`/blog/${post.slug}`}>{post.title}</Link>
        </h3>
        <p>{post.summary}</p>
      </div>
    </article>
  );
}
