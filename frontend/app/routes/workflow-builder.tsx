import { WorkflowBuilder } from '../components/WorkflowBuilder.tsx';
import { workflow } from '../i18n/en/workflow.ts';
import { useT } from '../i18n/use-t.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({
    title: `${workflow.title} – Quire`,
    description: workflow.description,
    path: '/workflow-builder',
  });
}

export default function WorkflowBuilderPage() {
  const t = useT();
  return (
    <div className="page">
      <h1>{t('workflow.title')}</h1>
      <p>{t('workflow.description')}</p>
      <WorkflowBuilder />
    </div>
  );
}
