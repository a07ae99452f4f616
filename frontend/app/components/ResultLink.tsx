import { useState } from 'react';
import { downloadUrl, readableName } from '../lib/api.ts';
import { toolKey, useLanguageCode, useT, type CopyKey } from '../i18n/use-t.ts';
import type { Result } from './upload/use-upload-run.ts';
import { ResultPreview } from './jobs/ResultPreview.tsx';
import { ResultSummary } from './jobs/ResultSummary.tsx';

/** What was checked, as a list in the visitor's language; checks without words of their own are left out. */
export function saidChecks(t: ReturnType<typeof useT>, list: string[]): string {
  return list
    .map((c) => t(`checks.${c}` as CopyKey))
    .filter((text) => !text.startsWith('checks.'))
    .join(', ');
}

export function ResultLink({ result }: { result: Result }) {
  const t = useT();
  const name = readableName(result.download);
  const said = (list: string[]) => saidChecks(t, list);
  const checks = said(result.checks);
  return (
    <div className="result">
      <div className="result-main">
        <a className="button primary" href={downloadUrl(result.download)} download={name}>
          ⬇ {t('upload.download', { name })}
        </a>
        {result.summary && <ResultSummary summary={result.summary} />}
        {result.expiresAt && <ShareLink download={result.download} expiresAt={result.expiresAt} />}
        {result.steps ? (
          <details className="checks">
            <summary>✔ {t('workflow.stepChecks')}</summary>
            <ol>
              {result.steps.map((step, i) => (
                <li key={i}>
                  {t(toolKey(step.tool, 'name'))}: {said(step.checks) || '–'}
                </li>
              ))}
            </ol>
          </details>
        ) : (
          checks && <p className="checks">✔ {t('upload.checked', { checks })}</p>
        )}
      </div>
      {/* Beside the card, not below it: the card stays as tall as it was when it was scrolled into view. */}
      {/\.pdf$/i.test(name) && <ResultPreview href={downloadUrl(result.download)} showPages={!result.summary} />}
    </div>
  );
}

/**
 * The result's address to copy and share, with how long it works: the result is deleted when it expires.
 * The address is shown too, to select by hand where the clipboard is not allowed.
 */
function ShareLink({ download, expiresAt }: { download: string; expiresAt: string }) {
  const t = useT();
  const language = useLanguageCode();
  const [copied, setCopied] = useState(false);
  const link = new URL(downloadUrl(download), window.location.href).href;
  const time = new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit' }).format(new Date(expiresAt));
  const id = `share-${download.slice(0, 8)}`;
  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // No clipboard here: the address is selected, to copy by hand.
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  }
  return (
    <div className="share">
      <div className="share-row">
        <input
          id={id}
          type="url"
          readOnly
          value={link}
          dir="ltr"
          aria-label={t('upload.copyLink')}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="button" onClick={() => void copy()}>
          {t('upload.copyLink')}
        </button>
      </div>
      <p className="note">{t('upload.linkExpires', { time })}</p>
      <p className="note" role="status">
        {copied ? `✔ ${t('upload.linkCopied')}` : ''}
      </p>
    </div>
  );
}
