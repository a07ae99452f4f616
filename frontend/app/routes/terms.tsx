import { LegalPage } from '../components/LegalPage.tsx';
import { english } from '../i18n/dictionary.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({ title: `${english.terms.title} – Quire`, description: english.terms.description, path: '/terms' });
}

export default function Terms() {
  return <LegalPage page="terms" sections={['use', 'files', 'limits', 'warranty', 'changes']} />;
}
