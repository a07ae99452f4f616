import { constants, workflowTools } from '@quire/catalog/site';
import { findTool } from '../lib/tools.ts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { postForm } from '../lib/api.ts';
// The copy the builder shows loads with it.
import '../i18n/en/workflow.ts';
import { toolKey, useT } from '../i18n/use-t.ts';
import { ProgressBar } from './ProgressBar.tsx';
import { ResultLink } from './ResultLink.tsx';
import { errorMessage } from './upload/outcome-message.ts';

/** Builds a chain of tools (no duplicates), runs it on one file and offers the result. */
export function WorkflowBuilder({ initialSteps = [] }: { initialSteps?: string[] }) {
  const t = useT();
  const [file, setFile] = useState<File>();
  const [steps, setSteps] = useState<string[]>(initialSteps);
  const [status, setStatus] = useState('');
  const [progress, setProgress] = useState(0);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ download: string; checks: string[] }>();
  const ready = Boolean(file) && steps.length > 0;
  const label = (id: string) => t(toolKey(id, 'name'));

  function change(next: string[]) {
    setSteps(next);
    setResult(undefined);
    setStatus('');
  }

  function move(from: number, to: number) {
    const next = [...steps];
    const [id] = next.splice(from, 1);
    next.splice(to, 0, id!);
    change(next);
  }

  async function run(e: FormEvent) {
    e.preventDefault();
    if (!file || steps.length === 0) {
      setStatus(t('workflow.needInput'));
      return;
    }
    const form = new FormData();
    form.append('file', file, file.name);
    setBusy(true);
    setResult(undefined);
    setStatus(t('workflow.running'));
    setProgress(constants.initialProgress);
    const outcome = await postForm(
      `/api.php?workflow=custom&steps=${steps.map(encodeURIComponent).join(',')}`,
      form,
      (p) => setProgress(Math.max(constants.initialProgress, p)),
    );
    setBusy(false);
    setProgress(100);
    if (outcome.ok) {
      setResult(outcome);
      setStatus(t('workflow.done', { count: steps.length }));
    } else if (outcome.reason === 'network') {
      console.error('Workflow upload error');
      setStatus(t('workflow.uploadError'));
    } else if (outcome.reason === 'no-download') {
      setStatus(t('workflow.failed'));
    } else {
      // The details name the step that failed.
      setStatus(`${t('workflow.failed')} ${errorMessage(t, outcome)}`);
    }
  }

  return (
    <form className="workflow" onSubmit={run}>
      <div className="field">
        <label htmlFor="workflow-file">{t('workflow.file')}</label>
        <input
          id="workflow-file"
          type="file"
          onChange={(e) => {
            setFile(e.target.files?.[0]);
            setResult(undefined);
            setStatus('');
          }}
        />
      </div>
      <div className="workflow-columns">
        <section aria-labelledby="workflow-tools">
          <h2 id="workflow-tools">{t('workflow.available')}</h2>
          <ul className="workflow-tools">
            {workflowTools.map((id) => (
              <li key={id}>
                <button type="button" disabled={steps.includes(id)} onClick={() => change([...steps, id])}>
                  <span aria-hidden="true">{findTool(id)?.icon}</span> {t('workflow.add', { label: label(id) })}
                </button>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="workflow-steps">
          <h2 id="workflow-steps">{t('workflow.steps')}</h2>
          {steps.length === 0 ? (
            <p className="muted">{t('workflow.empty')}</p>
          ) : (
            <ol className="file-list">
              {steps.map((id, i) => (
                <li key={id}>
                  <span className="file-name">{label(id)}</span>
                  <button
                    type="button"
                    className="icon-button"
                    disabled={i === 0}
                    aria-label={t('workflow.moveUp', { label: label(id) })}
                    onClick={() => move(i, i - 1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    disabled={i === steps.length - 1}
                    aria-label={t('workflow.moveDown', { label: label(id) })}
                    onClick={() => move(i, i + 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={t('workflow.remove', { label: label(id) })}
                    onClick={() => change(steps.filter((s) => s !== id))}
                  >
                    ✕
                  </button>
                </li>
              ))}
            </ol>
          )}
          {steps.length > 0 && (
            <p>
              <Link to={`/workflow/${steps.join(',')}`}>🔗 {t('workflow.shareLink')}</Link>
            </p>
          )}
        </section>
      </div>
      <button type="submit" className="button primary" disabled={!ready || busy}>
        {t('workflow.run')}
      </button>
      {!ready && <p className="muted">{t('workflow.needInput')}</p>}
      <ProgressBar value={progress} />
      <p role="status" aria-live="polite" className="upload-status">
        {status}
      </p>
      {result && <ResultLink result={result} />}
    </form>
  );
}
