import { constants } from '@quire/catalog/site';
import { readErrorDetails, type ErrorCode } from '@quire/catalog/errors';
import type { RunOutcome } from '../../lib/api.ts';
import { authHeaders, isSignedIn } from '../../lib/auth.ts';
import { recordLocalUse } from '../../lib/history.ts';
import { toolKey, useT } from '../../i18n/use-t.ts';
import { outcomeMessage } from '../upload/outcome-message.ts';
import { useRunState } from '../upload/use-upload-run.ts';

interface Counter {
  done: number;
  total: number;
}

interface Job {
  id: string;
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  progress: { files: Counter; steps?: Counter };
  result?: {
    download: string;
    properties?: { checks?: unknown; steps?: { tool: string; checks: unknown }[] };
    report?: { outcome: 'ok' | 'failed' }[];
  };
  error?: { code: ErrorCode; message: string; details?: unknown };
}

/** How often a running job is asked how it goes. */
const pollMs = 1000;

const names = (checks: unknown) => (Array.isArray(checks) ? checks.filter((c) => typeof c === 'string') : []);

/**
 * A workflow run as a job (docs/api.md, "Jobs"), followed until it ends: one file through the steps,
 * its progress the steps ended and the step under way named, its result each step's checks; or several
 * files as a batch, its progress the files done and its result a zip with a report. The same state as
 * useUploadRun, for RunStatus; the outcome, for the password prompt.
 */
export function useJobRun() {
  const t = useT();
  const { status, setStatus, failed, setFailed, progress, setProgress, busy, setBusy, result, setResult } =
    useRunState();
  const share = (c: Counter) =>
    constants.initialProgress + Math.round(((100 - constants.initialProgress) * c.done) / c.total) - 1;

  function fail(outcome: Exclude<RunOutcome, { ok: true }>): RunOutcome {
    setStatus(outcomeMessage(t, outcome));
    setFailed(true);
    return outcome;
  }

  const failure = (job: Partial<Job> | undefined): Exclude<RunOutcome, { ok: true }> =>
    job?.error
      ? { ok: false, reason: 'error', ...job.error, details: readErrorDetails(job.error.details) }
      : { ok: false, reason: 'network' };

  async function start(form: FormData, address: string, steps: string[], batch: boolean): Promise<RunOutcome> {
    setBusy(true);
    setFailed(false);
    setResult(undefined);
    setProgress(constants.initialProgress);
    setStatus(t('upload.working'));
    try {
      const headers = await authHeaders().catch((): Record<string, string> => ({}));
      const sent = await fetch(address, { method: 'POST', body: form, headers });
      let job = (await sent.json()) as Job;
      if (sent.status !== 202) return fail(failure(job));
      while (job.state === 'queued' || job.state === 'running') {
        const stepped = !batch && job.progress.steps;
        setProgress(share(stepped || job.progress.files));
        if (stepped && job.state === 'running') {
          const at = Math.min(stepped.done, stepped.total - 1);
          const name = t(toolKey(steps[at] ?? '', 'name'));
          setStatus(t('workflow.stepRunning', { step: at + 1, count: stepped.total, name }));
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        const res = await fetch(`/api/v1/jobs/${encodeURIComponent(job.id)}`, { headers });
        job = (await res.json()) as Job;
        if (!res.ok) return fail(failure(job));
      }
      if (job.state !== 'done' || !job.result) return fail(failure(job));
      const { download, properties, report = [] } = job.result;
      if (!isSignedIn()) recordLocalUse(steps.join(','));
      if (batch) {
        const lost = report.filter((r) => r.outcome === 'failed').length;
        setResult({ download, checks: [] });
        setStatus(
          `${t('workflow.batchDone', { count: report.length, steps: steps.length })}${lost ? ` ${t('workflow.batchFailed', { failed: lost, count: report.length })}` : ''}`,
        );
      } else {
        const each = (properties?.steps ?? []).map((s) => ({ tool: s.tool, checks: names(s.checks) }));
        setResult({ download, checks: names(properties?.checks), ...(each.length > 1 && { steps: each }) });
        setStatus(t('workflow.done', { count: steps.length }));
      }
      return { ok: true, download, checks: [] };
    } catch {
      return fail({ ok: false, reason: 'network' });
    } finally {
      setBusy(false);
      setProgress(100);
    }
  }

  /** Back to idle: what was shown belongs to inputs that have changed. */
  function reset() {
    setStatus('');
    setFailed(false);
    setProgress(0);
    setResult(undefined);
  }

  return { status, failed, progress, busy, result, start, reset };
}
