import { findTool } from '../lib/tools.ts';
import { useParams } from 'react-router';
import { WorkflowBuilder } from '../components/WorkflowBuilder.tsx';
import { workflow } from '../i18n/en/workflow.ts';
import { useT } from '../i18n/use-t.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ params }: { params: { slug?: string } }) {
  return pageMeta({
    title: `${workflow.savedTitle} – Quire`,
    description: workflow.description,
    path: `/workflow/${params.slug ?? ''}`,
    noindex: true,
  });
}

/** The slug is the steps value; the server checks the chain when it runs. */
export default function SavedWorkflow() {
  const t = useT();
  const { slug = '' } = useParams();
  const steps = [...new Set(slug.split(',').flatMap((s) => findTool(s.trim())?.id ?? []))];
  return (
    <div className="page">
      <h1>{t('workflow.savedTitle')}</h1>
      <p>{t('workflow.savedText')}</p>
      <WorkflowBuilder key={slug} initialSteps={steps} />
    </div>
  );
}
