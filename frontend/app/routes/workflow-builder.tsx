import { WorkflowBuilder } from '../components/WorkflowBuilder.tsx';
import { english } from '../i18n/dictionary.ts';
import { useT } from '../i18n/use-t.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({
    title: `${english.workflow.title} – Quire`,
    description: english.workflow.description,
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
