import { useState, type FormEvent } from 'react';
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

export type { Result };

/** The upload widget: idle, file chosen, uploading with progress, then success or failure. */
export function UploadWidget({ tool, onResult }: { tool: Tool; onResult: (result: Result | undefined) => void }) {
  const t = useT();
  const fields = withPageLanguage(tool.options, useLanguage());
  const byUrl = takesUrl(tool);
  const [url, setUrl] = useState('');
  const [options, setOptions] = useState<Record<string, string>>({});
  const chosen = useChosenFiles(tool);
  const password = usePasswordPrompt(tool.passwordFirst);
  const run = useUploadRun(tool, onResult);
  // Files a page view makes for the call (sign-pdf's signature image), sent after the chosen ones.
  const [madeFiles, setMadeFiles] = useState<File[]>([]);
  // The one PDF chosen (with a certificate, say), for a page view of it.
  const pdfs = chosen.files.filter((f) => /\.pdf$/i.test(f.name));
  const pdfFile = pdfs.length === 1 ? pdfs[0] : undefined;

  function choose(list: FileList) {
    if (!chosen.choose(list)) return;
    password.forget();
    run.reset();
  }

  async function convert(e: FormEvent) {
    e.preventDefault();
    if (run.busy) return;
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
    password.follow(await run.send(form));
  }

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
        <DropZone tool={tool} onFiles={choose} />
      )}
      {chosen.carried && <p className="note">{t('upload.carried')}</p>}
      {chosen.files.length > 0 && (
        <FileList
          files={chosen.files}
          reorder={takesMany(tool)}
          onChange={(next) => (chosen.setFiles(next), run.reset())}
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
      <button type="submit" className="button primary" disabled={run.busy}>
        {password.asking && !tool.passwordFirst ? t('upload.passwordSubmit') : t('upload.convert')}
      </button>
      <RunStatus progress={run.progress} status={run.status} failed={run.failed} result={run.result} />
    </form>
  );
}
