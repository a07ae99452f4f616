import { useT } from '../../i18n/use-t.ts';

/**
 * The password of a protected input, asked for once the server said it needs one: a PDF's, or a Word,
 * Excel or PowerPoint document's for the tools that read those.
 */
export function PasswordField({
  toolId,
  readsPdf,
  value,
  onChange,
}: {
  toolId: string;
  readsPdf: boolean;
  value: string;
  onChange: (password: string) => void;
}) {
  const t = useT();
  return (
    <div className="field">
      <label htmlFor={`${toolId}-password`}>
        {t(readsPdf ? 'upload.passwordLabel' : 'upload.documentPasswordLabel')}
      </label>
      <input
        id={`${toolId}-password`}
        type="password"
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
