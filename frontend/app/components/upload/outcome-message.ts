import type { ErrorDetails } from '@quire/catalog/errors';
import { fileKinds } from 'virtual:quire/file-kinds';
import type { RunOutcome } from '../../lib/api.ts';
import { findTool } from '../../lib/tools.ts';
import { toolKey, type CopyKey, type useT } from '../../i18n/use-t.ts';

type T = ReturnType<typeof useT>;

/**
 * A fragment kept in its own direction inside a sentence (Unicode's first-strong isolate): a file name or
 * a format in an Arabic sentence keeps its letters in order and the sentence's punctuation in place.
 */
export const isolate = (text: string) => `\u2068${text}\u2069`;

/** The kinds a tool takes, as its picker lists them: `PDF`, `PNG, BMP, GIF`. */
export function wantedKinds(toolId: string | undefined): string {
  const tool = toolId ? findTool(toolId) : undefined;
  return tool && 'kinds' in tool.input ? tool.input.kinds.map((k) => fileKinds[k].label).join(', ') : '';
}

function kindLabel(kind: string): string {
  return Object.hasOwn(fileKinds, kind) ? fileKinds[kind as keyof typeof fileKinds].label : kind.toUpperCase();
}

/** An option's label as its field shows it, without the hint in brackets some labels carry. */
export function optionLabel(t: T, option: string): string {
  const text = t(`options.${option}` as CopyKey);
  return text.startsWith('options.') ? option : text.replace(/\s*\(.*\)\s*$/, '');
}

/** The sentence for an error the server described with details, in the visitor's language; else undefined. */
function detailedMessage(t: T, code: string, d: ErrorDetails): string | undefined {
  const file = d.file === undefined ? undefined : isolate(d.file);
  const tool = d.tool && findTool(d.tool) ? t(toolKey(findTool(d.tool)!.id, 'name')) : undefined;
  if (code === 'empty_file' && file) return t('problems.emptyFile', { file });
  if (code === 'unsupported_type' && file && tool) {
    const wanted = isolate(wantedKinds(d.tool));
    if (d.kind === 'heic') return t('problems.heic', { file, tool });
    if (d.kind) return t('problems.wrongKind', { file, kind: isolate(kindLabel(d.kind)), tool, wanted });
    return t('problems.unknownKind', { file, tool, wanted });
  }
  if (code === 'invalid_option' && d.option) {
    const option = optionLabel(t, d.option);
    if (d.pages === 1) return t('problems.optionOnePage', { option });
    if (d.pages) return t('problems.optionPages', { option, pages: d.pages });
    return t('problems.optionInvalid', { option });
  }
  return undefined;
}

/** The sentence for a contract error: from its code and details, in the visitor's language. */
export function errorMessage(
  t: T,
  outcome: { code: string; message?: string; details?: ErrorDetails },
  readsPdf = true,
): string {
  const { code, details = {} } = outcome;
  if (code === 'password_required' && !readsPdf) return t('upload.documentProtected');
  let text = detailedMessage(t, code, details) ?? t(`errors.${code}` as CopyKey);
  // An option error not pinned to a field, or a chain that does not fit: only the server's (English)
  // sentence says which field or step.
  const vague = (code === 'invalid_option' && !details.option) || code === 'invalid_workflow';
  if (vague && outcome.message) text = `${text} ${outcome.message}`;
  // A workflow's failing step is named before what went wrong in it.
  const stepTool = details.step && details.tool && findTool(details.tool);
  return stepTool
    ? t('problems.step', { step: details.step!, tool: t(toolKey(stepTool.id, 'name')), message: text })
    : text;
}

/** The status line for a run that gave no result; `readsPdf` says whether a protected input is a PDF. */
export function outcomeMessage(t: T, outcome: Exclude<RunOutcome, { ok: true }>, readsPdf = true): string {
  if (outcome.reason === 'network') return t('upload.uploadError');
  if (outcome.reason === 'no-download') return t('upload.failed');
  return errorMessage(t, outcome, readsPdf);
}
