import { useT } from '../../i18n/use-t.ts';

/** The address field of a tool that fetches its input from the web. */
export function UrlField({ value, onChange }: { value: string; onChange: (url: string) => void }) {
  const t = useT();
  return (
    <div className="field">
      <label htmlFor="tool-url">{t('upload.urlLabel')}</label>
      <input
        id="tool-url"
        type="url"
        inputMode="url"
        value={value}
        placeholder={t('upload.urlPlaceholder')}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
