import type { RunOutcome } from '../../lib/api.ts';
import type { CopyKey, useT } from '../../i18n/use-t.ts';

/** The status line for a run that gave no result; `readsPdf` says whether a protected input is a PDF. */
export function outcomeMessage(
  t: ReturnType<typeof useT>,
  outcome: Exclude<RunOutcome, { ok: true }>,
  readsPdf = true,
): string {
  if (outcome.reason === 'network') return t('upload.uploadError');
  if (outcome.reason === 'no-download') return t('upload.failed');
  if (outcome.code === 'password_required' && !readsPdf) return t('upload.documentProtected');
  const text = t(`errors.${outcome.code}` as CopyKey);
  // Option errors name the field; the server's sentence says which.
  return outcome.code === 'invalid_option' && outcome.message ? `${text} ${outcome.message}` : text;
}
