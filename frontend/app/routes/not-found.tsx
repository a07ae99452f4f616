import { NotFound } from '../components/NotFound.tsx';
import { english } from '../i18n/dictionary.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({ title: english.notFound.title, description: english.notFound.text, path: '/404', noindex: true });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
