import { useEffect, useState, type FormEvent } from 'react';
import { constants } from '@quire/catalog/site';
import { takesMany, takesUrl, type Tool } from '../lib/tools.ts';
import { useLanguage } from '../i18n/index.ts';
import { useT } from '../i18n/use-t.ts';
import { FileList } from './FileList.tsx';
import { OptionsForm } from './OptionsForm.tsx';
import { DropZone } from './upload/DropZone.tsx';
import { uploadForm } from './upload/form-data.ts';
import { withPageLanguage } from './upload/ocr-language.ts';
import { ToolPasswordField } from './upload/PasswordField.tsx';
import { RunStatus } from './upload/RunStatus.tsx';
import { UrlField } from './upload/UrlField.tsx';
import { useChosenFiles } from './upload/use-chosen-files.ts';
import { usePasswordPrompt } from './upload/use-password-prompt.ts';
import { useUploadRun, type Result } from './upload/use-upload-run.ts';
import { BatchRows } from './jobs/BatchRows.tsx';
import { isFinal, jobKey, rowsOf } from './jobs/job-view.ts';
import { useJobRun } from './jobs/use-job-run.ts';

export type { Result };

/** The upload widget: idle, file chosen, uploading with progress, then success or failure. */
export function UploadWidget({ tool, onResult }: { tool: Tool; onResult: (result: Result | undefined) => void }) {
  const t = useT();
  const fields = withPageLanguage(tool.options, useLanguage());
  const byUrl = takesUrl(tool);
  const [url, setUrl] = useState('');
  const [options, setOptions] = useState<Record<string, string>>({});
  // A single-file tool takes several files as one batch job, each file run on its own.
  const batchable = !byUrl && !takesMany(tool);
  const chosen = useChosenFiles(tool, batchable ? constants.batchMaxFiles : undefined);
  const password = usePasswordPrompt(tool.passwordFirst);
  const run = useUploadRun(tool, onResult);
  const job = useJobRun();
  const key = jobKey(tool.id);
  // Files a page view makes for the call (sign-pdf's signature image), sent after the chosen ones.
  const [madeFiles, setMadeFiles] = useState<File[]>([]);
  // A page view's files belong to one document: with them, only one file is sent.
  const asBatch = batchable && chosen.files.length > 1 && madeFiles.length === 0;
  // One file of a tool that may take minutes (OCR) runs as a job too: its pages are told as they go.
  const asJob = asBatch || (batchable && tool.longRuns && chosen.files.length === 1 && madeFiles.length === 0);
  const call = { steps: [tool.id], batch: asBatch, key };
  // A batch this tab started and left (a reload) is followed again.
  useEffect(() => void job.resume(call), [tool.id]);
  // The one PDF chosen (with a certificate, say), for a page view of it.
  const pdfs = chosen.files.filter((f) => /\.pdf$/i.test(f.name));
  const pdfFile = pdfs.length === 1 ? pdfs[0] : undefined;

  function choose(list: FileList) {
    if (!chosen.choose(list)) return;
    password.forget();
    run.reset();
    job.reset(key);
  }

  async function convert(e: FormEvent) {
    e.preventDefault();
    if (run.busy || job.busy) return;
    if (byUrl ? !url.trim().startsWith('http') : chosen.files.length === 0) {
      run.refuse(t(byUrl ? 'upload.validUrl' : 'upload.chooseFile'));
      return;
    }
    const form = uploadForm({
      url: byUrl ? url : undefined,
      files: [...chosen.files, ...madeFiles],
      fields,
      options,
      password: password.password,
    });
    if (!asJob) return void password.follow(await run.send(form));
    run.reset();
    const address = `/api/v1/jobs?tool=${encodeURIComponent(tool.id)}`;
    password.follow(
      await job.start(
        form,
        address,
        call,
        chosen.files.map((f) => f.name),
      ),
    );
  }

  const following = job.busy || job.job !== undefined || job.status !== '';
  // A batch lists its files, with their own results and the zip; one file's job shows its result as a call would.
  const listed = asBatch || job.job?.progress.perFile !== undefined;
  // While the job is under way, from the first byte of its upload.
  const cancel = job.busy && !(job.job && isFinal(job.job.state)) ? () => void job.cancel() : undefined;

  return (
    <form className="upload" onSubmit={convert} noValidate>
      {byUrl ? (
        <UrlField
          value={url}
          onChange={(next) => {
            setUrl(next);
            run.reset();
          }}
        />
      ) : (
        <DropZone tool={tool} batch={batchable} onFiles={choose} />
      )}
      {chosen.carried && <p className="note">{t('upload.carried')}</p>}
      {chosen.tooMany && (
        <p className="note" role="alert">
          {t('batch.tooMany', { max: constants.batchMaxFiles })}
        </p>
      )}
      {chosen.files.length > 0 && (
        <FileList
          files={chosen.files}
          reorder={takesMany(tool)}
          onChange={(next) => (chosen.setFiles(next), run.reset(), job.reset(key))}
        />
      )}
      <OptionsForm
        toolId={tool.id}
        fields={fields}
        values={options}
        onChange={(changes) => setOptions((now) => ({ ...now, ...changes }))}
        pdf={
          pdfFile && {
            file: pdfFile,
            password: password.password,
            onLocked: tool.password ? password.ask : () => undefined,
            onFiles: setMadeFiles,
          }
        }
      />
      <ToolPasswordField tool={tool} prompt={password} />
      <button type="submit" className="button primary" disabled={run.busy || job.busy}>
        {password.asking && !tool.passwordFirst ? t('upload.passwordSubmit') : t('upload.convert')}
      </button>
      {/* One status element throughout, so that its live region hears every message. */}
      {following ? (
        <RunStatus
          progress={job.progress}
          status={job.status}
          failed={job.failed}
          {...(!listed && job.result && { result: job.result })}
        />
      ) : (
        <RunStatus progress={run.progress} status={run.status} failed={run.failed} result={run.result} />
      )}
      {following && listed && (job.job || job.busy) && (
        <BatchRows
          rows={rowsOf(job.files, job.job)}
          zip={job.job?.state === 'done' ? job.result?.download : undefined}
          onCancel={cancel}
        />
      )}
      {following && !listed && cancel && (
        <button type="button" className="button" onClick={cancel}>
          {t('batch.cancel')}
        </button>
      )}
    </form>
  );
}
