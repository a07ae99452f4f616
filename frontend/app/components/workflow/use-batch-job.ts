import { constants } from '@quire/catalog/site';
import { readErrorDetails } from '@quire/catalog/errors';
import { authHeaders } from '../../lib/auth.ts';
import { useT } from '../../i18n/use-t.ts';
import { errorMessage } from '../upload/outcome-message.ts';
import { useRunState } from '../upload/use-upload-run.ts';

interface Job {
  id: string;
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  progress: { files: { done: number; total: number } };
  result?: { download: string; report?: { outcome: 'ok' | 'failed' }[] };
  error?: { code: string; message: string; details?: unknown };
}

/** How often a running job is asked how it goes. */
const pollMs = 1000;

/**
 * Several files through a workflow whose first step takes one: a batch job (docs/api.md, "Jobs"),
 * followed until it ends; the files done make the progress, and the result is a zip with a report.
 * The same state as useUploadRun, for RunStatus.
 */
export function useBatchJob() {
  const t = useT();
  const { status, setStatus, failed, setFailed, progress, setProgress, busy, setBusy, result, setResult } =
    useRunState();

  function fail(job: Partial<Job> | undefined) {
    const error = job?.error;
    setStatus(
      error ? errorMessage(t, { ...error, details: readErrorDetails(error.details) }) : t('workflow.uploadError'),
    );
    setFailed(true);
  }

  async function start(form: FormData, address: string, steps: number) {
    setBusy(true);
    setFailed(false);
    setResult(undefined);
    setProgress(constants.initialProgress);
    setStatus(t('upload.working'));
    try {
      const headers = await authHeaders().catch((): Record<string, string> => ({}));
      const sent = await fetch(address, { method: 'POST', body: form, headers });
      let job = (await sent.json()) as Job;
      if (sent.status !== 202) return fail(job);
      while (job.state === 'queued' || job.state === 'running') {
        const { done, total } = job.progress.files;
        setProgress(constants.initialProgress + Math.round(((100 - constants.initialProgress) * done) / total) - 1);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        const res = await fetch(`/api/v1/jobs/${encodeURIComponent(job.id)}`, { headers });
        job = (await res.json()) as Job;
        if (!res.ok) return fail(job);
      }
      if (job.state !== 'done' || !job.result) return fail(job);
      const report = job.result.report ?? [];
      const lost = report.filter((r) => r.outcome === 'failed').length;
      setResult({ download: job.result.download, checks: [] });
      setStatus(
        `${t('workflow.batchDone', { count: report.length, steps })}${lost ? ` ${t('workflow.batchFailed', { failed: lost, count: report.length })}` : ''}`,
      );
    } catch {
      fail(undefined);
    } finally {
      setBusy(false);
      setProgress(100);
    }
  }

  return { status, failed, progress, busy, result, start };
}
