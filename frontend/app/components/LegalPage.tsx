import { useT, type CopyKey } from '../i18n/use-t.ts';
import { useSiteSettings } from '../lib/settings.ts';

/** A page of titled sections from the dictionary: the privacy policy and the terms. */
export function LegalPage({ page, sections }: { page: 'privacy' | 'terms'; sections: readonly string[] }) {
  const t = useT();
  const settings = useSiteSettings();
  const values = { minutes: settings.resultMinutes, mb: settings.uploadLimitMb };
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
