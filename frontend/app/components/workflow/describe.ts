import type { useT } from '../../i18n/use-t.ts';
import { toolKey } from '../../i18n/use-t.ts';
import { fileKinds } from 'virtual:quire/file-kinds';
import { optionLabel } from '../upload/outcome-message.ts';
import type { NotOffered, StepProblem } from './chain.ts';

type T = ReturnType<typeof useT>;

/** A tool's name in the visitor's language. */
export const toolName = (t: T, id: string) => t(toolKey(id, 'name'));

/** Why a tool cannot be added, or why a step is at fault, as a sentence naming the tool. */
export function problemText(t: T, id: string, problem: NotOffered | StepProblem): string {
  const label = toolName(t, id);
  switch (problem.reason) {
    case 'option':
      return t('problems.optionInvalid', { option: optionLabel(t, problem.option) });
    case 'kind':
      return `${label} ${t('workflow.unfitKind', { kind: fileKinds[problem.kind].label, previous: toolName(t, problem.after) })}`;
    case 'webAddress':
      return `${label} ${t('workflow.unfitWebAddress')}`;
    case 'password':
      return `${label} ${t('workflow.unfitPassword')}`;
    case 'severalFiles':
      return `${label} ${t('workflow.unfitSeveralFiles')}`;
    case 'already':
      return `${label} ${t('workflow.unfitAlready')}`;
  }
}
