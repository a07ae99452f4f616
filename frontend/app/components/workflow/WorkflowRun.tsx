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
import { useBatchJob } from './use-batch-job.ts';

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
  const batch = useBatchJob();
  const asBatch = batchable && chosen.files.length > 1;
  const password = usePasswordPrompt(first.passwordFirst);
  const run = useUploadRun(first, () => undefined);
  const ready = chosen.files.length > 0;
  const chain = JSON.stringify(steps.map(stepOf));
  // What was shown belongs to steps that have changed.
  useEffect(() => run.reset(), [chain]);

  async function start(e: FormEvent) {
    e.preventDefault();
    if (run.busy || batch.busy || !ready) return;
    if (steps.some((_, i) => stepProblem(steps, i, tools))) return run.refuse(t('workflow.fixSteps'));
    const checked = checkSteps(steps);
    if (!checked.ok) return run.refuse(`${t('errors.invalid_workflow')} ${checked.message}`);
    const sent = await runAddress(steps.map(stepOf), asBatch ? 'job' : 'call');
    if (!sent.ok)
      return run.refuse(sent.code ? errorMessage(t, { ...sent, code: sent.code }) : t('workflow.uploadError'));
    const form = uploadForm({
      files: chosen.files,
      fields: withPageLanguage(first.options, language),
      options: steps[0]!.options,
      password: password.password,
    });
    if (asBatch) return batch.start(form, sent.address, steps.length);
    const label = steps.map((s) => s.tool).join(',');
    password.follow(
      await run.send(form, { address: sent.address, label, done: t('workflow.done', { count: steps.length }) }),
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
        }}
      />
      {ready && (
        <FileList
          files={chosen.files}
          reorder={takesMany(first)}
          onChange={(next) => (chosen.setFiles(next), run.reset())}
        />
      )}
      <ToolPasswordField tool={first} prompt={password} />
      <button type="submit" className="button primary" disabled={!ready || run.busy || batch.busy}>
        {password.asking && !first.passwordFirst ? t('upload.passwordSubmit') : t('workflow.run')}
      </button>
      {!ready && <p className="muted">{t('workflow.needInput')}</p>}
      {asBatch && (batch.status || batch.busy) ? (
        <RunStatus progress={batch.progress} status={batch.status} failed={batch.failed} result={batch.result} />
      ) : (
        <RunStatus progress={run.progress} status={run.status} failed={run.failed} result={run.result} />
      )}
    </form>
  );
}
