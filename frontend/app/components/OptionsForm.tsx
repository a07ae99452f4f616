import { compressionLevels, type CompressionLevel } from '@quire/catalog/compression';
import type { OptionField } from '@quire/catalog';
import { lazy, Suspense } from 'react';
import type { CopyKey } from '../i18n/use-t.ts';
import { useT } from '../i18n/use-t.ts';
import { LanguageChoice } from './upload/LanguageChoice.tsx';

/** The tools with a page view, and the field it shows under: the one it fills in, or the one it is about. */
const pageViewField: Record<string, string> = {
  'organize-pdf': 'plan',
  'pdf-page-remove': 'pages',
  'add-page-numbers': 'pages',
  'crop-pdf': 'box',
  'fill-pdf-form': 'values',
  'sign-pdf': 'page',
  'redact-pdf': 'boxes',
};
// pdf.js comes with the page view, loaded once a PDF is chosen on a tool page that has one.
const PageView = lazy(() => import('./planner/PageView.tsx'));

/** The chosen PDF, for a page view of it. */
export type ChosenPdf = { file: File; password: string; onLocked: () => void; onFiles: (files: File[]) => void };

/** Labels for option names and choices; a name or value without one is shown as it is. */
function label(t: ReturnType<typeof useT>, key: string): string {
  const text = t(`options.${key}` as CopyKey);
  return text === `options.${key}` ? key : text;
}

/** A tool's options as controls, generated from the catalog's schema with its defaults filled in. */
export function OptionsForm({
  toolId,
  fields,
  values,
  onChange,
  pdf,
}: {
  toolId: string;
  fields: OptionField[];
  values: Record<string, string>;
  onChange: (changes: Record<string, string>) => void;
  pdf?: ChosenPdf;
}) {
  const t = useT();
  if (fields.length === 0) return null;
  const filled = Object.fromEntries(fields.map((f) => [f.name, values[f.name] ?? f.default ?? '']));
  return (
    <fieldset className="options">
      <legend>{t('upload.options')}</legend>
      {fields.map((f) => {
        const id = `${toolId}-${f.name}`;
        const value = values[f.name] ?? f.default ?? '';
        if (f.type === 'boolean') {
          return (
            <label key={f.name} className="check">
              <input
                type="checkbox"
                id={id}
                checked={value === 'true'}
                onChange={(e) => onChange({ [f.name]: String(e.target.checked) })}
              />
              {label(t, f.name)}
            </label>
          );
        }
        if (f.name === 'language')
          return <LanguageChoice key={f.name} id={id} value={value} onChange={(v) => onChange({ [f.name]: v })} />;
        // A compression level says what it keeps, in the numbers the service holds it to.
        const level = f.name === 'level' ? compressionLevels[value as CompressionLevel] : undefined;
        return (
          <div key={f.name} className="field">
            <label htmlFor={id}>{label(t, f.name)}</label>
            {f.type === 'choice' ? (
              <select
                id={id}
                value={value}
                aria-describedby={level ? `${id}-hint` : undefined}
                onChange={(e) => onChange({ [f.name]: e.target.value })}
              >
                {f.choices.map((c) => (
                  <option key={c} value={c}>
                    {/^\d+$/.test(c) ? `${c}°` : label(t, c)}
                  </option>
                ))}
              </select>
            ) : f.multiline ? (
              <textarea
                id={id}
                rows={3}
                value={value}
                maxLength={f.maxLength}
                onChange={(e) => onChange({ [f.name]: e.target.value })}
              />
            ) : (
              <input
                id={id}
                type={f.secret ? 'password' : f.type === 'text' ? 'text' : 'number'}
                // A password set for a new file is the visitor's to choose, never one a browser fills in.
                autoComplete={f.secret ? 'new-password' : undefined}
                value={value}
                required={f.required}
                min={f.min}
                max={f.max}
                step={f.type === 'number' ? 0.05 : undefined}
                maxLength={f.maxLength}
                pattern={f.pattern?.replace(/^\^|\$$/g, '')}
                placeholder={f.pattern ? t('options.rangesHint') : undefined}
                onChange={(e) => onChange({ [f.name]: e.target.value })}
              />
            )}
            {pdf && pageViewField[toolId] === f.name && (
              <Suspense fallback={null}>
                <PageView
                  toolId={toolId}
                  file={pdf.file}
                  password={pdf.password}
                  onLocked={pdf.onLocked}
                  values={filled}
                  onChange={onChange}
                  onFiles={pdf.onFiles}
                />
              </Suspense>
            )}
            {level && (
              <p className="hint" id={`${id}-hint`}>
                {t('options.levelHint', { dpi: level.dpi, ssim: level.ssim })}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
