import { downloadUrl } from '../../lib/api.ts';
import { useT, type CopyKey } from '../../i18n/use-t.ts';
import { saidChecks } from '../ResultLink.tsx';
import { errorMessage } from '../upload/outcome-message.ts';
import type { Row } from './job-view.ts';
import { ResultPreview } from './ResultPreview.tsx';
import { ResultSummary } from './ResultSummary.tsx';

/**
 * A batch's files, one row each: its state (and pages), a failed file's reason, a done file's checks,
 * what it changed and its own download; then Cancel while the job runs, and the zip of all once it is done.
 * The run's status line (RunStatus) is what screen readers hear; the rows are there to read.
 */
export function BatchRows({
  rows,
  zip,
  onCancel,
}: {
  rows: Row[];
  /** The batch's zip, once it is done. */
  zip?: string;
  /** While the job can be cancelled. */
  onCancel?: () => void;
}) {
  const t = useT();
  return (
    <section className="batch">
      <h2 className="batch-title">{t('batch.files')}</h2>
      <ol className="batch-rows" aria-label={t('batch.files')}>
        {rows.map((row, i) => {
          const checks = saidChecks(t, row.checks);
          return (
            <li key={i} className={`batch-row ${row.state}`} data-state={row.state}>
              <span className="batch-file">{row.file}</span>{' '}
              <span className="batch-state">
                {t(`batch.states.${row.state}` as CopyKey)}
                {row.pages !== undefined && ` · ${t('batch.pages', { count: row.pages })}`}
              </span>
              {row.state === 'failed' && row.error && <p className="batch-error">{errorMessage(t, row.error)}</p>}
              {checks && <p className="checks">✔ {t('upload.checked', { checks })}</p>}
              {row.summary && <ResultSummary summary={row.summary} />}
              {row.download && /\.pdf$/i.test(row.name ?? '') && (
                <ResultPreview href={row.download} pagesIn={row.pages} showPages={!row.summary} />
              )}
              {row.download && (
                <a className="button" href={row.download} download={row.name ?? ''}>
                  ⬇ {t('upload.download', { name: row.name ?? row.file })}
                </a>
              )}
            </li>
          );
        })}
      </ol>
      {onCancel && (
        <button type="button" className="button" onClick={onCancel}>
          {t('batch.cancel')}
        </button>
      )}
      {zip && (
        <a className="button primary" href={downloadUrl(zip)} download>
          ⬇ {t('batch.downloadAll')}
        </a>
      )}
    </section>
  );
}
