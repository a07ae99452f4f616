import { useLanguage } from '../i18n/index.ts';
import { isLanguage, languages } from '../i18n/languages.ts';
import { chooseLanguage } from '../i18n/use-language.ts';
import { useT } from '../i18n/use-t.ts';

export function LanguagePicker() {
  const t = useT();
  const language = useLanguage();
  return (
    <label className="language">
      <span className="visually-hidden">{t('nav.language')}</span>
      <select
        value={language}
        onChange={(e) => {
          if (isLanguage(e.target.value)) void chooseLanguage(e.target.value);
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
