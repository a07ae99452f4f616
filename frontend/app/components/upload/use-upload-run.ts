import { useState } from 'react';
import { constants } from '@quire/catalog/site';
import { postForm, type RunOutcome } from '../../lib/api.ts';
import { isSignedIn } from '../../lib/auth.ts';
import { recordLocalUse } from '../../lib/history.ts';
import { readsPdf, type Tool } from '../../lib/tools.ts';
import { useT } from '../../i18n/use-t.ts';
import { outcomeMessage } from './outcome-message.ts';
import { summaryOf, type Summary } from '../jobs/job-view.ts';

export interface Result {
  download: string;
  checks: string[];
  /** When the result is deleted (ISO date), as the server said. */
  expiresAt?: string;
  /** A workflow's steps, each with what was checked of its result. */
  steps?: { tool: string; checks: string[] }[];
  /** What the result changed: a smaller file, or pages in and out. */
  summary?: Summary;
}

/** What a run shows (RunStatus): its status line, whether it failed, its progress, busy, its result. */
export function useRunState() {
  const [status, setStatus] = useState('');
  const [failed, setFailed] = useState(false);
  const [progress, setProgress] = useState(0);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result>();
  return { status, setStatus, failed, setFailed, progress, setProgress, busy, setBusy, result, setResult };
}

/** One run of the tool at a time: its progress, the status line, and the result once there is one. */
export function useUploadRun(tool: Tool, onResult: (result: Result | undefined) => void) {
  const t = useT();
  const { status, setStatus, failed, setFailed, progress, setProgress, busy, setBusy, result, setResult } =
    useRunState();

  /** Back to idle: what was shown belongs to inputs that have changed. */
  function reset() {
    setStatus('');
    setFailed(false);
    setProgress(0);
    setResult(undefined);
    onResult(undefined);
  }

  /**
   * Sends the form to the tool, or to another address (a workflow's), with what the history records and
   * the status to say on success.
   */
  async function send(
    form: FormData,
    call: { address: string; label: string; done: string } = {
      address: `/api.php?tool=${encodeURIComponent(tool.id)}`,
      label: tool.id,
      done: t('upload.success'),
    },
  ): Promise<RunOutcome> {
    reset();
    setBusy(true);
    setProgress(constants.initialProgress);
    setStatus(t('upload.working'));
    const outcome = await postForm(call.address, form, (p) => setProgress(Math.max(constants.initialProgress, p)));
    setBusy(false);
    setProgress(100);
    if (outcome.ok) {
      const summary = summaryOf(outcome.properties);
      const done = {
        download: outcome.download,
        checks: outcome.checks,
        expiresAt: outcome.expiresAt,
        ...(summary && { summary }),
      };
      setResult(done);
      onResult(done);
      // A local history, for visitors who are not signed in (the gateway keeps the others').
      if (!isSignedIn()) recordLocalUse(call.label);
      setStatus(call.done);
    } else {
      if (outcome.reason === 'network') console.error('Upload error', tool.id);
      setStatus(outcomeMessage(t, outcome, readsPdf(tool)));
      setFailed(true);
    }
    return outcome;
  }

  /** A problem found before sending (no file, no address): shown as an error. */
  function refuse(text: string) {
    setStatus(text);
    setFailed(true);
  }

  return { status, failed, progress, busy, result, reset, send, refuse };
}
