import { LegalPage } from '../components/LegalPage.tsx';
import { english } from '../i18n/dictionary.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({
    title: `${english.privacy.title} – Quire`,
    description: english.privacy.description,
    path: '/privacy-policy',
  });
}

export default function Privacy() {
  return <LegalPage page="privacy" sections={['files', 'account', 'contact', 'storage', 'logs', 'rights']} />;
}
