import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { WorkflowBuilder } from '../components/WorkflowBuilder.tsx';
import { loadSaved } from '../components/workflow/saved-api.ts';
import type { WorkflowFile } from '../components/workflow/workflow-file.ts';
import { workflow } from '../i18n/en/workflow.ts';
import { useT } from '../i18n/use-t.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ params }: { params: { id?: string } }) {
  return pageMeta({
    title: `${workflow.savedTitle} – Quire`,
    description: workflow.description,
    path: `/workflow/saved/${params.id ?? ''}`,
    noindex: true,
  });
}

/** A workflow saved with its options, loaded by its id (its short link). */
export default function SavedById() {
  const t = useT();
  const { id = '' } = useParams();
  const [loaded, setLoaded] = useState<WorkflowFile | 'missing'>();
  useEffect(() => {
    let current = true;
    setLoaded(undefined);
    void loadSaved(id).then((w) => current && setLoaded(w ?? 'missing'));
    return () => {
      current = false;
    };
  }, [id]);
  return (
    <div className="page">
      <h1>{loaded && loaded !== 'missing' && loaded.name ? loaded.name : t('workflow.savedTitle')}</h1>
      {loaded === undefined ? (
        <p role="status">{t('workflow.loading')}</p>
      ) : loaded === 'missing' ? (
        <p role="alert">{t('workflow.notFound')}</p>
      ) : (
        <>
          <p>{t('workflow.savedText')}</p>
          <WorkflowBuilder key={id} initialSteps={loaded.steps} initialName={loaded.name} />
        </>
      )}
    </div>
  );
}
