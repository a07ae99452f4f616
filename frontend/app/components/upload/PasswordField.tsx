import { useT } from '../../i18n/use-t.ts';
import { readsPdf, type Tool } from '../../lib/tools.ts';
import type { usePasswordPrompt } from './use-password-prompt.ts';

/**
 * The password of a protected input, asked for once the server said it needs one (or at once, for a tool
 * whose inputs are protected as a rule): a PDF's, or a Word, Excel or PowerPoint document's.
 */
export function PasswordField({
  toolId,
  readsPdf,
  optional = false,
  value,
  onChange,
}: {
  toolId: string;
  readsPdf: boolean;
  /** Asked before the server said it needs one: the field says when it is needed. */
  optional?: boolean;
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
        {...(optional ? { 'aria-describedby': `${toolId}-password-hint` } : {})}
      />
      {optional && (
        <small id={`${toolId}-password-hint`} className="hint">
          {t('upload.passwordHint')}
        </small>
      )}
    </div>
  );
}

/** A tool's password field, shown while its prompt asks (see usePasswordPrompt). */
export function ToolPasswordField({ tool, prompt }: { tool: Tool; prompt: ReturnType<typeof usePasswordPrompt> }) {
  if (!prompt.asking || !tool.password) return null;
  return (
    <PasswordField
      toolId={tool.id}
      readsPdf={readsPdf(tool)}
      optional={tool.passwordFirst}
      value={prompt.password}
      onChange={prompt.setPassword}
    />
  );
}
