import { constants } from '@quire/catalog/site';
import { useT, type CopyKey } from '../i18n/use-t.ts';

/** A page of titled sections from the dictionary: the privacy policy and the terms. */
export function LegalPage({ page, sections }: { page: 'privacy' | 'terms'; sections: readonly string[] }) {
  const t = useT();
  const values = { minutes: constants.resultTtlSeconds / 60, mb: constants.uploadLimitMb };
  return (
    <article className="page narrow prose">
      <h1>{t(`${page}.title`)}</h1>
      <p className="muted">{t(`${page}.updated`)}</p>
      {sections.map((s) => (
        <section key={s}>
          <h2>{t(`${page}.${s}Title` as CopyKey)}</h2>
          <p>{t(`${page}.${s}Text` as CopyKey, values)}</p>
        </section>
      ))}
    </article>
  );
}
