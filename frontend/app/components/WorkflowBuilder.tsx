import type { WorkflowStep } from '@quire/catalog';
import { useState } from 'react';
// The copy the builder shows loads with it.
import '../i18n/en/workflow.ts';
import { useT } from '../i18n/use-t.ts';
import { tools } from '../lib/tools.ts';
import { newStep, stepsFrom, type Step } from './workflow/chain.ts';
import { SaveShare } from './workflow/SaveShare.tsx';
import { StepList } from './workflow/StepList.tsx';
import { ToolPicker } from './workflow/ToolPicker.tsx';
import { WorkflowRun } from './workflow/WorkflowRun.tsx';

/**
 * Builds a chain of the catalog's tools, each step with its options, and runs it on the first step's
 * files; saves, shares and loads it.
 */
export function WorkflowBuilder({
  initialSteps = [],
  initialName = '',
}: {
  initialSteps?: (string | WorkflowStep)[];
  initialName?: string;
}) {
  const t = useT();
  const [steps, setSteps] = useState<Step[]>(() => stepsFrom(initialSteps));
  const [name, setName] = useState(initialName);
  const first = steps[0] && tools.find((x) => x.id === steps[0]!.tool);
  return (
    <div className="workflow">
      <div className="workflow-columns">
        <ToolPicker steps={steps} onAdd={(id) => setSteps([...steps, newStep(id)])} />
        <section aria-labelledby="workflow-steps">
          <h2 id="workflow-steps">{t('workflow.steps')}</h2>
          <StepList steps={steps} onChange={setSteps} />
        </section>
      </div>
      {first ? (
        <WorkflowRun steps={steps} first={first} />
      ) : (
        <div className="upload workflow-run">
          <p className="muted">{t('workflow.needFirstStep')}</p>
          <button type="button" className="button primary" disabled>
            {t('workflow.run')}
          </button>
          <p className="muted">{t('workflow.needInput')}</p>
        </div>
      )}
      <SaveShare
        steps={steps}
        name={name}
        onName={setName}
        onLoad={(w) => {
          setSteps(stepsFrom(w.steps));
          setName(w.name);
        }}
      />
    </div>
  );
}
