import { useState } from 'react';
import { useLanguage } from '../i18n/index.ts';
import { isLanguage, languages, type Language } from '../i18n/languages.ts';
import { chooseLanguage } from '../i18n/use-language.ts';
import { useT } from '../i18n/use-t.ts';

export function LanguagePicker() {
  const t = useT();
  const language = useLanguage();
  // The choice shows at once, while its dictionary loads.
  const [pending, setPending] = useState<Language>();
  return (
    <label className="language">
      <span className="visually-hidden">{t('nav.language')}</span>
      <select
        value={pending ?? language}
        onChange={(e) => {
          const chosen = e.target.value;
          if (!isLanguage(chosen)) return;
          setPending(chosen);
          void chooseLanguage(chosen).finally(() => setPending((now) => (now === chosen ? undefined : now)));
        }}
      >
        {Object.entries(languages).map(([code, l]) => (
          <option key={code} value={code} lang={code}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
}
