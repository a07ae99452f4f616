import { useState } from 'react';
import { Link } from 'react-router';
import { useT } from '../../i18n/use-t.ts';
import { isSignedIn } from '../../lib/auth.ts';
import { errorMessage } from '../upload/outcome-message.ts';
import { stepOf, type Step } from './chain.ts';
import { saveWorkflow } from './saved-api.ts';
import { parseWorkflow, workflowFileName, workflowJson, type WorkflowFile } from './workflow-file.ts';

/**
 * A workflow's name, and its ways out and in: the address of its steps, a short link saved with its
 * options, a JSON file to download, and a file to load.
 */
export function SaveShare({
  steps,
  name,
  onName,
  onLoad,
}: {
  steps: Step[];
  name: string;
  onName: (name: string) => void;
  onLoad: (workflow: WorkflowFile) => void;
}) {
  const t = useT();
  const [link, setLink] = useState<{ for: string; href: string }>();
  const [status, setStatus] = useState('');
  const workflow = { name, steps: steps.map(stepOf) };
  const current = JSON.stringify(workflow);
  const withOptions = workflow.steps.some((s) => s.options);

  async function save() {
    setStatus(t('workflow.saving'));
    const saved = await saveWorkflow(workflow, isSignedIn());
    if (saved.ok) {
      setLink({ for: current, href: saved.link });
      setStatus('');
    } else
      setStatus(
        saved.code
          ? `${t('workflow.saveFailed')} ${errorMessage(t, { ...saved, code: saved.code })}`
          : t('workflow.saveFailed'),
      );
  }

  async function load(file: File | undefined) {
    if (!file) return;
    const read = parseWorkflow(await file.text());
    if (!read.ok) return setStatus(`${t('workflow.notWorkflow')}${read.message ? ` ${read.message}` : ''}`);
    onLoad(read.workflow);
    setLink(undefined);
    setStatus(t('workflow.loaded', { name: read.workflow.name || file.name }));
  }

  const href = link?.for === current ? new URL(link.href, window.location.href).href : undefined;
  return (
    <section className="workflow-share" aria-labelledby="workflow-share">
      <h2 id="workflow-share" className="visually-hidden">
        {t('workflow.shareLink')}
      </h2>
      <div className="field">
        <label htmlFor="workflow-name">{t('workflow.name')}</label>
        <input id="workflow-name" type="text" maxLength={100} value={name} onChange={(e) => onName(e.target.value)} />
      </div>
      {steps.length > 0 && !withOptions && (
        <p>
          <Link to={`/workflow/${steps.map((s) => s.tool).join(',')}`}>🔗 {t('workflow.shareLink')}</Link>
        </p>
      )}
      <div className="share-row">
        {steps.length > 0 && (
          <button type="button" className="button" onClick={() => void save()}>
            {t('workflow.save')}
          </button>
        )}
        {steps.length > 0 && (
          <a
            className="button"
            download={workflowFileName(name)}
            href={`data:application/json;charset=utf-8,${encodeURIComponent(workflowJson(workflow))}`}
          >
            ⬇ {t('workflow.downloadFile')}
          </a>
        )}
        <label className="button" htmlFor="workflow-load">
          {t('workflow.loadFile')}
        </label>
        <input
          id="workflow-load"
          type="file"
          className="visually-hidden"
          accept=".json,application/json"
          onChange={(e) => {
            void load(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>
      {href && (
        <div className="share">
          <label htmlFor="workflow-link">{t('workflow.savedLink')}</label>
          <input id="workflow-link" type="url" readOnly dir="ltr" value={href} onFocus={(e) => e.target.select()} />
        </div>
      )}
      <p role="status" aria-live="polite" className="note">
        {status}
      </p>
    </section>
  );
}
