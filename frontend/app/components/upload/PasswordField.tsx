import { useT } from '../../i18n/use-t.ts';

/** The password of a protected input, asked for once the server said it needs one. */
export function PasswordField({
  toolId,
  value,
  onChange,
}: {
  toolId: string;
  value: string;
  onChange: (password: string) => void;
}) {
  const t = useT();
  return (
    <div className="field">
      <label htmlFor={`${toolId}-password`}>{t('upload.passwordLabel')}</label>
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
