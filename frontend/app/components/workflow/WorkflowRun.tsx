import { constants } from '@quire/catalog/site';
import { useEffect, type FormEvent } from 'react';
import { useLanguage } from '../../i18n/index.ts';
import { useT } from '../../i18n/use-t.ts';
import { takesMany, tools, type Tool } from '../../lib/tools.ts';
import { FileList } from '../FileList.tsx';
import { DropZone } from '../upload/DropZone.tsx';
import { uploadForm } from '../upload/form-data.ts';
import { withPageLanguage } from '../upload/ocr-language.ts';
import { errorMessage } from '../upload/outcome-message.ts';
import { ToolPasswordField } from '../upload/PasswordField.tsx';
import { RunStatus } from '../upload/RunStatus.tsx';
import { useChosenFiles } from '../upload/use-chosen-files.ts';
import { usePasswordPrompt } from '../upload/use-password-prompt.ts';
import { useUploadRun } from '../upload/use-upload-run.ts';
import { checkSteps, stepOf, stepProblem, type Step } from './chain.ts';
import { runAddress } from './run-address.ts';
import { BatchRows } from '../jobs/BatchRows.tsx';
import { isFinal, jobKey, rowsOf } from '../jobs/job-view.ts';
import { useJobRun } from '../jobs/use-job-run.ts';

/**
 * The tool page's upload widget for a workflow: the first step's files (dropped or picked), the password
 * when the server asks for one, and the run, checked against the catalog before anything is sent.
 */
export function WorkflowRun({ steps, first }: { steps: Step[]; first: Tool }) {
  const t = useT();
  const language = useLanguage();
  // A first step that takes one file takes several as a batch job.
  const batchable = !takesMany(first);
  const chosen = useChosenFiles(first, batchable ? constants.batchMaxFiles : undefined);
  const job = useJobRun();
  const asBatch = batchable && chosen.files.length > 1;
  const password = usePasswordPrompt(first.passwordFirst);
  const run = useUploadRun(first, () => undefined);
  const ready = chosen.files.length > 0;
  const chain = JSON.stringify(steps.map(stepOf));
  // Where a reload finds the run again: the steps are in the page's address.
  const key = jobKey(`workflow:${chain}`);
  const call = { steps: steps.map((s) => s.tool), batch: asBatch, key };
  // What was shown belongs to steps that have changed; a run of these steps this tab left is followed again.
  useEffect(() => {
    run.reset();
    job.reset();
    void job.resume(call);
  }, [chain]);

  async function start(e: FormEvent) {
    e.preventDefault();
    if (job.busy || !ready) return;
    if (steps.some((_, i) => stepProblem(steps, i, tools))) return run.refuse(t('workflow.fixSteps'));
    const checked = checkSteps(steps);
    if (!checked.ok) return run.refuse(`${t('errors.invalid_workflow')} ${checked.message}`);
    // A job per run: its steps are seen as they end, and a batch's files.
    const sent = await runAddress(steps.map(stepOf), 'job');
    if (!sent.ok)
      return run.refuse(sent.code ? errorMessage(t, { ...sent, code: sent.code }) : t('workflow.uploadError'));
    const form = uploadForm({
      files: chosen.files,
      fields: withPageLanguage(first.options, language),
      options: steps[0]!.options,
      password: password.password,
    });
    run.reset();
    password.follow(
      await job.start(
        form,
        sent.address,
        call,
        chosen.files.map((f) => f.name),
      ),
    );
  }

  return (
    <form className="upload workflow-run" onSubmit={start} noValidate>
      <DropZone
        tool={first}
        batch={batchable}
        onFiles={(list) => {
          if (!chosen.choose(list)) return;
          password.forget();
          run.reset();
          job.reset(key);
        }}
      />
      {ready && (
        <FileList
          files={chosen.files}
          reorder={takesMany(first)}
          onChange={(next) => (chosen.setFiles(next), run.reset(), job.reset(key))}
        />
      )}
      <ToolPasswordField tool={first} prompt={password} />
      <button type="submit" className="button primary" disabled={!ready || job.busy}>
        {password.asking && !first.passwordFirst ? t('upload.passwordSubmit') : t('workflow.run')}
      </button>
      {!ready && <p className="muted">{t('workflow.needInput')}</p>}
      {/* One status element throughout, so that its live region hears every message. */}
      {job.status || job.busy ? (
        <RunStatus progress={job.progress} status={job.status} failed={job.failed} result={job.result} />
      ) : (
        <RunStatus progress={run.progress} status={run.status} failed={run.failed} result={run.result} />
      )}
      {job.job?.progress.perFile && (
        <BatchRows
          rows={rowsOf(job.files, job.job)}
          onCancel={isFinal(job.job.state) ? undefined : () => void job.cancel()}
        />
      )}
    </form>
  );
}
