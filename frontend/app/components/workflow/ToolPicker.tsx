import { useT } from '../../i18n/use-t.ts';
import { tools } from '../../lib/tools.ts';
import { choices, type Step } from './chain.ts';
import { problemText, toolName } from './describe.ts';

/**
 * Every catalog tool: those that can come after the steps as buttons to add them, the others below,
 * each with the reason it cannot come next.
 */
export function ToolPicker({ steps, onAdd }: { steps: readonly Step[]; onAdd: (toolId: string) => void }) {
  const t = useT();
  const all = choices(tools, steps);
  const fit = all.filter((c) => !c.unfit);
  const unfit = all.filter((c) => c.unfit);
  return (
    <section aria-labelledby="workflow-tools">
      <h2 id="workflow-tools">{t('workflow.available')}</h2>
      <ul className="workflow-tools">
        {fit.map(({ tool }) => (
          <li key={tool.id}>
            <button type="button" onClick={() => onAdd(tool.id)}>
              <span aria-hidden="true">{tool.icon}</span> {t('workflow.add', { label: toolName(t, tool.id) })}
            </button>
          </li>
        ))}
      </ul>
      {unfit.length > 0 && (
        <details className="workflow-unfit">
          <summary>{t('workflow.cannotFollow', { count: unfit.length })}</summary>
          <ul className="workflow-tools">
            {unfit.map(({ tool, unfit: why }) => (
              <li key={tool.id}>
                <button type="button" disabled aria-describedby={`unfit-${tool.id}`}>
                  <span aria-hidden="true">{tool.icon}</span> {t('workflow.add', { label: toolName(t, tool.id) })}
                </button>
                <small id={`unfit-${tool.id}`} className="hint">
                  {problemText(t, tool.id, why!)}
                </small>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
