import { useT } from '../i18n/use-t.ts';

/** The chosen files in the order they will be sent, with controls to reorder and remove them. */
export function FileList({ files, onChange }: { files: File[]; onChange: (files: File[]) => void }) {
  const t = useT();
  const move = (from: number, to: number) => {
    const next = [...files];
    const [file] = next.splice(from, 1);
    next.splice(to, 0, file!);
    onChange(next);
  };
  return (
    <ol className="file-list" aria-label={t('upload.files')}>
      {files.map((file, i) => (
        <li key={`${file.name}-${i}`}>
          <span className="file-name">{file.name}</span>
          <span className="file-size">{(file.size / 1024 / 1024).toFixed(1)} MB</span>
          <button
            type="button"
            className="icon-button"
            disabled={i === 0}
            aria-label={t('upload.moveUp', { name: file.name })}
            onClick={() => move(i, i - 1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="icon-button"
            disabled={i === files.length - 1}
            aria-label={t('upload.moveDown', { name: file.name })}
            onClick={() => move(i, i + 1)}
          >
            ↓
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={t('upload.remove', { name: file.name })}
            onClick={() => onChange(files.filter((_, k) => k !== i))}
          >
            ✕
          </button>
        </li>
      ))}
    </ol>
  );
}
