import { fileKinds } from 'virtual:quire/file-kinds';
import { constants } from '@quire/catalog/site';
import { takesMany, takesUrl, type Tool } from '../lib/tools.ts';
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { postForm, type RunOutcome } from '../lib/api.ts';
import { isSignedIn } from '../lib/auth.ts';
import { recordLocalUse } from '../lib/history.ts';
import { takeHandoff } from '../lib/handoff.ts';
import { useSiteSettings } from '../lib/settings.ts';
import { useT, type CopyKey } from '../i18n/use-t.ts';
import { FileList } from './FileList.tsx';
import { OptionsForm } from './OptionsForm.tsx';
import { ProgressBar } from './ProgressBar.tsx';
import { ResultLink } from './ResultLink.tsx';

/** File name endings the picker offers; the server judges files by their content, not by these. */
function acceptOf(tool: Tool): string {
  if (!('kinds' in tool.input)) return '';
  const more: Record<string, string[]> = { jpeg: ['.jpeg'], tiff: ['.tiff'], html: ['.htm'] };
  return tool.input.kinds.flatMap((k) => [`.${fileKinds[k].ext}`, ...(more[k] ?? [])]).join(',');
}

export interface Result {
  download: string;
  checks: string[];
}

/** The spec's upload widget: idle, file chosen, uploading with progress, then success or failure. */
export function UploadWidget({ tool, onResult }: { tool: Tool; onResult: (result: Result | undefined) => void }) {
  const t = useT();
  const byUrl = takesUrl(tool);
  const many = takesMany(tool);
  const fields = tool.options;
  const [files, setFiles] = useState<File[]>([]);
  const [url, setUrl] = useState('');
  const [options, setOptions] = useState<Record<string, string>>({});
  const [password, setPassword] = useState('');
  const [askPassword, setAskPassword] = useState(false);
  const [status, setStatus] = useState('');
  const [progress, setProgress] = useState(0);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result>();
  const [carried, setCarried] = useState(false);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const settings = useSiteSettings();

  function reset() {
    setStatus('');
    setProgress(0);
    setResult(undefined);
    onResult(undefined);
  }

  function choose(list: FileList | File[]) {
    const chosen = [...list];
    if (chosen.length === 0) return;
    // Single-file tools take the first file of a picker or drop (spec §5); the others add to the list.
    setFiles(many ? [...files, ...chosen].slice(0, 'kinds' in tool.input ? tool.input.max : 1) : chosen.slice(0, 1));
    setCarried(false);
    setAskPassword(false);
    setPassword('');
    reset();
  }

  useEffect(() => {
    let current = true;
    void takeHandoff().then((file) => {
      if (file && current) {
        setFiles([file]);
        setCarried(true);
      }
    });
    return () => {
      current = false;
    };
  }, [tool.id]);

  function describe(outcome: Exclude<RunOutcome, { ok: true }>): string {
    if (outcome.reason === 'network') return t('upload.uploadError');
    if (outcome.reason === 'no-download') return t('upload.failed');
    const text = t(`errors.${outcome.code}` as CopyKey);
    // Option errors name the field; the server's sentence says which.
    return outcome.code === 'invalid_option' && outcome.message ? `${text} ${outcome.message}` : text;
  }

  async function convert(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (byUrl ? !url.trim().startsWith('http') : files.length === 0) {
      setStatus(t(byUrl ? 'upload.validUrl' : 'upload.chooseFile'));
      return;
    }
    const form = new FormData();
    if (byUrl) form.append('url', url.trim());
    for (const file of files) form.append('file', file, file.name);
    for (const f of fields) {
      const value = options[f.name] ?? f.default;
      if (value !== undefined && value !== '') form.append(f.name, value);
    }
    if (password) form.append('password', password);

    reset();
    setBusy(true);
    setProgress(constants.initialProgress);
    setStatus(t('upload.working'));
    const outcome = await postForm(`/api.php?tool=${encodeURIComponent(tool.id)}`, form, (p) =>
      setProgress(Math.max(constants.initialProgress, p)),
    );
    setBusy(false);
    setProgress(100);
    if (outcome.ok) {
      const done = { download: outcome.download, checks: outcome.checks };
      setResult(done);
      onResult(done);
      // The spec's local history, for visitors who are not signed in (the gateway keeps the others').
      if (!isSignedIn()) recordLocalUse(tool.id);
      setAskPassword(false);
      setStatus(t('upload.success'));
      return;
    }
    if (outcome.reason === 'network') console.error('Upload error', tool.id);
    if (outcome.reason === 'error' && (outcome.code === 'password_required' || outcome.code === 'wrong_password')) {
      setAskPassword(true);
    }
    setStatus(describe(outcome));
  }

  function drop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    if (!byUrl) choose(e.dataTransfer.files);
  }

  const kinds = 'kinds' in tool.input ? tool.input.kinds.map((k) => fileKinds[k].label).join(', ') : '';
  return (
    <form className="upload" onSubmit={convert} noValidate>
      {byUrl ? (
        <div className="field">
          <label htmlFor="tool-url">{t('upload.urlLabel')}</label>
          <input
            id="tool-url"
            type="url"
            inputMode="url"
            value={url}
            placeholder={t('upload.urlPlaceholder')}
            onChange={(e) => {
              setUrl(e.target.value);
              reset();
            }}
          />
        </div>
      ) : (
        <div
          className={`drop-zone${dragging ? ' dragging' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <input
            ref={input}
            id={`${tool.id}-file`}
            type="file"
            className="visually-hidden"
            accept={acceptOf(tool)}
            multiple={many}
            onChange={(e) => {
              if (e.target.files) choose(e.target.files);
              e.target.value = '';
            }}
          />
          <label htmlFor={`${tool.id}-file`} className="button">
            {t(many ? 'upload.chooseMany' : 'upload.choose')}
          </label>
          <span>{t(many ? 'upload.dropMany' : 'upload.drop')}</span>
          <small>{t('upload.accepts', { kinds, mb: settings.uploadLimitMb })}</small>
        </div>
      )}
      {carried && <p className="note">{t('upload.carried')}</p>}
      {files.length > 0 && <FileList files={files} onChange={(next) => (setFiles(next), reset())} />}
      <OptionsForm
        toolId={tool.id}
        fields={fields}
        values={options}
        onChange={(name, value) => setOptions({ ...options, [name]: value })}
      />
      {askPassword && tool.password && (
        <div className="field">
          <label htmlFor={`${tool.id}-password`}>{t('upload.passwordLabel')}</label>
          <input
            id={`${tool.id}-password`}
            type="password"
            autoComplete="off"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
      )}
      <button type="submit" className="button primary" disabled={busy}>
        {askPassword ? t('upload.passwordSubmit') : t('upload.convert')}
      </button>
      <ProgressBar value={progress} />
      <p role="status" aria-live="polite" className="upload-status">
        {status}
      </p>
      {result && <ResultLink result={result} />}
    </form>
  );
}
