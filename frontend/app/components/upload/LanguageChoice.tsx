import { ocrLanguages } from '@quire/catalog/ocr';
import type { CopyKey } from '../../i18n/use-t.ts';
import { useT } from '../../i18n/use-t.ts';

/** The OCR languages as checkboxes, sent joined by `+`; the last one checked stays checked. */
export function LanguageChoice({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const t = useT();
  const chosen = value.split('+').filter(Boolean);
  const toggle = (code: string, on: boolean) => {
    const next = ocrLanguages.filter((c) => (c === code ? on : chosen.includes(c)));
    if (next.length > 0) onChange(next.join('+'));
  };
  return (
    <fieldset className="field languages" id={id}>
      <legend>{t('options.language')}</legend>
      {ocrLanguages.map((code) => (
        <label key={code} className="check">
          <input type="checkbox" checked={chosen.includes(code)} onChange={(e) => toggle(code, e.target.checked)} />
          {t(`options.${code}` as CopyKey)}
        </label>
      ))}
    </fieldset>
  );
}
