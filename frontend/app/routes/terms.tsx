import { LegalPage } from '../components/LegalPage.tsx';
import { terms } from '../i18n/en/terms.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({ title: `${terms.title} – Quire`, description: terms.description, path: '/terms' });
}

export default function Terms() {
  return <LegalPage page="terms" sections={['use', 'files', 'limits', 'warranty', 'changes']} />;
}
