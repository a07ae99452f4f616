import { useEffect, useRef, useState } from 'react';
import { useLanguage } from '../../i18n/index.ts';
import { useT } from '../../i18n/use-t.ts';
import { tools } from '../../lib/tools.ts';
import { OptionsForm } from '../OptionsForm.tsx';
import { withPageLanguage } from '../upload/ocr-language.ts';
import { duplicateStep, moveStep, removeStep, stepProblem, type Step } from './chain.ts';
import { problemText, toolName } from './describe.ts';

type Action = 'up' | 'down' | 'duplicate';

/**
 * The steps in order, each with its options (the tool page's form) and its controls: up, down,
 * duplicate, remove. Buttons, so that the keyboard and a phone reorder as well as a mouse; the focus
 * follows a moved step and the move is said.
 */
export function StepList({ steps, onChange }: { steps: Step[]; onChange: (steps: Step[]) => void }) {
  const t = useT();
  const language = useLanguage();
  const [said, setSaid] = useState('');
  const focusAfter = useRef<{ key: string; action: Action }>(undefined);
  const list = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const target = focusAfter.current;
    focusAfter.current = undefined;
    if (!target) return;
    const row = list.current?.querySelector(`li[data-step="${target.key}"]`);
    const wanted = row?.querySelector<HTMLButtonElement>(`button[data-action="${target.action}"]`);
    const other = row?.querySelector<HTMLButtonElement>('button[data-action]:not(:disabled)');
    (wanted && !wanted.disabled ? wanted : other)?.focus();
  }, [steps]);

  if (steps.length === 0) return <p className="muted">{t('workflow.empty')}</p>;

  function act(i: number, action: Action) {
    const next = action === 'duplicate' ? duplicateStep(steps, i) : moveStep(steps, i, action === 'up' ? -1 : 1);
    const step = action === 'duplicate' ? next[i + 1]! : steps[i]!;
    focusAfter.current = { key: step.key, action };
    const position = next.indexOf(step) + 1;
    setSaid(t('workflow.moved', { label: toolName(t, step.tool), position, count: next.length }));
    onChange(next);
  }

  const setOptions = (i: number, changes: Record<string, string>) =>
    onChange(steps.map((s, k) => (k === i ? { ...s, options: { ...s.options, ...changes } } : s)));

  return (
    <>
      <ol className="file-list workflow-steps" ref={list}>
        {steps.map((step, i) => {
          const tool = tools.find((x) => x.id === step.tool);
          const label = toolName(t, step.tool);
          const problem = stepProblem(steps, i, tools);
          const problemId = `problem-${step.key}`;
          const button = (action: Action, text: string, icon: string, disabled = false) => (
            <button
              type="button"
              className="icon-button"
              data-action={action}
              disabled={disabled}
              aria-label={text}
              aria-describedby={problem ? problemId : undefined}
              onClick={() => act(i, action)}
            >
              {icon}
            </button>
          );
          return (
            <li key={step.key} data-step={step.key} className={problem ? 'misfit' : undefined}>
              <div className="step-head">
                <span className="step-number" aria-hidden="true">
                  {i + 1}.
                </span>
                <span className="file-name">{label}</span>
                {button('up', t('workflow.moveUp', { label }), '↑', i === 0)}
                {button('down', t('workflow.moveDown', { label }), '↓', i === steps.length - 1)}
                {button('duplicate', t('workflow.duplicate', { label }), '⧉')}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('workflow.remove', { label })}
                  onClick={() => {
                    setSaid('');
                    onChange(removeStep(steps, i));
                  }}
                >
                  ✕
                </button>
              </div>
              {problem && (
                <p id={problemId} className="upload-status error step-problem">
                  {t('workflow.stepProblem', { step: i + 1, problem: problemText(t, step.tool, problem) })}
                </p>
              )}
              {tool && tool.options.length > 0 && (
                <details className="step-options" open={problem?.reason === 'option' || undefined}>
                  <summary>{t('workflow.stepOptions', { step: i + 1, label })}</summary>
                  <OptionsForm
                    toolId={`${step.key}-${tool.id}`}
                    fields={withPageLanguage(tool.options, language)}
                    values={step.options}
                    onChange={(changes) => setOptions(i, changes)}
                  />
                </details>
              )}
            </li>
          );
        })}
      </ol>
      <p className="visually-hidden" role="status">
        {said}
      </p>
    </>
  );
}
