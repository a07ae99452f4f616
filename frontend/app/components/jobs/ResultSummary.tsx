import { useLanguageCode, useT } from '../../i18n/use-t.ts';
import type { Summary } from './job-view.ts';

/** What a result changed: compress's sizes before and after and the share saved, or pages in and out. */
export function ResultSummary({ summary }: { summary: Summary }) {
  const t = useT();
  const language = useLanguageCode();
  const size = (bytes: number) =>
    new Intl.NumberFormat(language, {
      style: 'unit',
      unit: bytes < 1024 * 1024 ? 'kilobyte' : 'megabyte',
      maximumFractionDigits: 1,
    }).format(bytes < 1024 * 1024 ? bytes / 1024 : bytes / (1024 * 1024));
  const text =
    summary.kind === 'size'
      ? t('batch.sizeSaved', { before: size(summary.before), after: size(summary.after), saved: summary.saved })
      : summary.before !== undefined
        ? t('batch.pagesInOut', { before: summary.before, after: summary.after })
        : t('batch.pagesOut', { after: summary.after });
  return <p className="result-summary">{text}</p>;
}
