import { constants } from '@quire/catalog/site';
import { faq } from '../i18n/en/faq.ts';
import { useT } from '../i18n/use-t.ts';
import { pageMeta } from '../lib/seo.ts';
import { useSiteSettings } from '../lib/settings.ts';

const questions = [1, 2, 3, 4, 5, 6, 7] as const;

export function meta() {
  return pageMeta({
    title: `${faq.title} – Quire`,
    description: faq.description,
    path: '/faq',
    jsonLd: [
      {
        '@type': 'FAQPage',
        mainEntity: questions.map((n) => ({
          '@type': 'Question',
          name: faq[`q${n}`],
          acceptedAnswer: {
            '@type': 'Answer',
            text: faq[`a${n}`]
              .replace('{{mb}}', String(constants.uploadLimitMb))
              .replace('{{minutes}}', String(constants.resultTtlSeconds / 60)),
          },
        })),
      },
    ],
  });
}

export default function Faq() {
  const t = useT();
  const settings = useSiteSettings();
  return (
    <div className="page narrow">
      <h1>{t('faq.title')}</h1>
      <dl className="faq">
        {questions.map((n) => (
          <div key={n}>
            <dt>{t(`faq.q${n}`)}</dt>
            <dd>{t(`faq.a${n}`, { mb: settings.uploadLimitMb, minutes: settings.resultMinutes })}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
