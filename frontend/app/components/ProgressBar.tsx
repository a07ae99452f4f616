import { useT } from '../i18n/use-t.ts';

/** Shown only while the value is strictly between 0 and 100. */
export function ProgressBar({ value }: { value: number }) {
  const t = useT();
  if (value <= 0 || value >= 100) return null;
  return (
    <progress className="progress" max={100} value={value} aria-label={t('upload.progress')}>
      {value}%
    </progress>
  );
}
