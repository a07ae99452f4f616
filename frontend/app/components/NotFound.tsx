import { Link } from 'react-router';
import { useT } from '../i18n/use-t.ts';

export function NotFound() {
  const t = useT();
  return (
    <section className="page narrow center">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <p>
        <Link to="/" className="button">
          {t('notFound.home')}
        </Link>
      </p>
    </section>
  );
}
