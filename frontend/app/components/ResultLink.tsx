import { downloadUrl, readableName } from '../lib/api.ts';
import { useT, type CopyKey } from '../i18n/use-t.ts';

export function ResultLink({ result }: { result: { download: string; checks: string[] } }) {
  const t = useT();
  const name = readableName(result.download);
  const checks = result.checks
    .map((c) => t(`checks.${c}` as CopyKey))
    .filter((text) => !text.startsWith('checks.'))
    .join(', ');
  return (
    <div className="result">
      <a className="button primary" href={downloadUrl(result.download)} download={name}>
        ⬇ {t('upload.download', { name })}
      </a>
      {checks && <p className="checks">✔ {t('upload.checked', { checks })}</p>}
    </div>
  );
}
