import { LegalPage } from '../components/LegalPage.tsx';
import { privacy } from '../i18n/en/privacy.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({
    title: `${privacy.title} – Quire`,
    description: privacy.description,
    path: '/privacy-policy',
  });
}

export default function Privacy() {
  return <LegalPage page="privacy" sections={['files', 'account', 'contact', 'storage', 'logs', 'rights']} />;
}
