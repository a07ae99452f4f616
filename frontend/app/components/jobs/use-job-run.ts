import { useEffect, useRef, useState } from 'react';
import { constants } from '@quire/catalog/site';
import { readErrorDetails } from '@quire/catalog/errors';
import { outcomeOf, sendForm, type RunOutcome } from '../../lib/api.ts';
import { authHeaders, isSignedIn } from '../../lib/auth.ts';
import { recordLocalUse } from '../../lib/history.ts';
import { toolKey, useT } from '../../i18n/use-t.ts';
import { outcomeMessage } from '../upload/outcome-message.ts';
import { useRunState } from '../upload/use-upload-run.ts';
import { checkNames, isFinal, summaryOf, type Counter, type Job, type JobState } from './job-view.ts';

/** How often a job is asked how it goes when its event stream cannot be followed. */
const pollMs = 1000;
const states: JobState[] = ['queued', 'running', 'done', 'failed', 'cancelled'];

/** What a run is: the tools it goes through, whether it is a batch, and where a reload finds it again. */
export interface JobCall {
  steps: string[];
  batch: boolean;
  /** The sessionStorage key the job's id is kept under while it lives (a tool page's), if any. */
  key?: string;
}

const jobAddress = (id: string) => `/api/v1/jobs/${encodeURIComponent(id)}`;

/** Asks for a job to be cancelled, as whoever made it (a signed-in owner's token, if any). */
async function deleteJob(id: string): Promise<void> {
  const headers = await authHeaders().catch((): Record<string, string> => ({}));
  await fetch(jobAddress(id), { method: 'DELETE', headers }).catch(() => undefined);
}

function remember(key: string | undefined, id: string | undefined) {
  if (!key) return;
  try {
    if (id) sessionStorage.setItem(key, id);
    else sessionStorage.removeItem(key);
  } catch {
    // Storage refused (private mode): a reload only loses the job.
  }
}

/**
 * A tool call or a workflow run as a job (docs/api.md, "Jobs"), followed by its event stream (or asked
 * every second when the stream breaks) until it ends: one file through the steps, its progress the steps
 * ended; or several files as a batch, each file's state as it goes and its result a zip with a report.
 * The same state as useUploadRun, for RunStatus, with the job itself for a batch's rows; the outcome,
 * for the password prompt. A job can be cancelled, and one kept under `key` is found again after a reload.
 */
export function useJobRun() {
  const t = useT();
  const { status, setStatus, failed, setFailed, progress, setProgress, busy, setBusy, result, setResult } =
    useRunState();
  const [job, setJob] = useState<Job>();
  const [files, setFiles] = useState<string[]>([]);
  // What stops following the current job: its stream closed, its polling ended.
  const stop = useRef<() => void>(() => undefined);
  // The upload under way, before the job exists: Cancel stops it.
  const upload = useRef<AbortController>(undefined);
  useEffect(() => () => stop.current(), []);

  const share = (c: Counter) =>
    constants.initialProgress + Math.round(((100 - constants.initialProgress) * c.done) / Math.max(1, c.total)) - 1;

  function fail(outcome: Exclude<RunOutcome, { ok: true }>): RunOutcome {
    setStatus(outcomeMessage(t, outcome));
    setFailed(true);
    return outcome;
  }

  const failure = (view: Partial<Job> | undefined): Exclude<RunOutcome, { ok: true }> =>
    view?.error
      ? { ok: false, reason: 'error', ...view.error, details: readErrorDetails(view.error.details) }
      : { ok: false, reason: 'network' };

  /** Shows a job as it is now. */
  function show(view: Job, call: JobCall) {
    setJob(view);
    if (isFinal(view.state)) return;
    const stepped = !call.batch && view.progress.steps;
    setProgress(share(stepped || view.progress.pages || view.progress.files));
    if (stepped && view.state === 'running') {
      const at = Math.min(stepped.done, stepped.total - 1);
      const name = t(toolKey(call.steps[at] ?? '', 'name'));
      setStatus(t('workflow.stepRunning', { step: at + 1, count: stepped.total, name }));
    } else if (call.batch) {
      const { done, total } = view.progress.files;
      setStatus(t(view.state === 'queued' ? 'batch.queued' : 'batch.running', { done, count: total }));
    } else if (view.state === 'running' && view.progress.pages) {
      const { done, total } = view.progress.pages;
      setStatus(t('batch.pagesRunning', { done, count: total }));
    }
  }

  /** The job's states until it ends: its event stream, else asking. */
  function follow(id: string, call: JobCall): Promise<Job> {
    return new Promise((resolve, reject) => {
      let ended = false;
      const end = (view: Job) => {
        ended = true;
        stop.current();
        resolve(view);
      };
      const poll = async () => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        stop.current = () => {
          ended = true;
          clearTimeout(timer);
        };
        try {
          const headers = await authHeaders().catch((): Record<string, string> => ({}));
          while (!ended) {
            const res = await fetch(jobAddress(id), { headers });
            const view = (await res.json()) as Job;
            if (!res.ok) return end({ ...view, id, state: 'failed', progress: { files: { done: 0, total: 0 } } });
            show(view, call);
            if (isFinal(view.state)) return end(view);
            await new Promise((r) => (timer = setTimeout(r, pollMs)));
          }
        } catch (err) {
          reject(err as Error);
        }
      };
      if (typeof EventSource === 'undefined') return void poll();
      const source = new EventSource(`${jobAddress(id)}/events`);
      stop.current = () => source.close();
      const take = (e: MessageEvent<string>) => {
        const view = JSON.parse(e.data) as Job;
        show(view, call);
        if (isFinal(view.state)) end(view);
      };
      for (const state of states) source.addEventListener(state, take);
      // A stream that breaks (a proxy that buffers, a dropped connection) gives way to asking.
      source.onerror = () => {
        source.close();
        if (!ended) void poll();
      };
    });
  }

  /** A job that has ended, as the page says it. */
  function finish(view: Job, call: JobCall): RunOutcome {
    setJob(view);
    setBusy(false);
    setProgress(100);
    if (view.state === 'cancelled') {
      setStatus(t('batch.cancelled'));
      return { ok: false, reason: 'network' };
    }
    if (view.state !== 'done' || !view.result) return fail(failure(view));
    const { download, properties, report = [] } = view.result;
    if (call.batch) {
      const lost = report.filter((r) => r.outcome === 'failed').length;
      setResult({ download, checks: [] });
      setStatus(
        call.steps.length > 1
          ? `${t('workflow.batchDone', { count: report.length, steps: call.steps.length })}${lost ? ` ${t('workflow.batchFailed', { failed: lost, count: report.length })}` : ''}`
          : t('batch.done', { ok: report.length - lost, count: report.length }),
      );
    } else {
      const each = (properties?.steps ?? []).map((s) => ({ tool: s.tool, checks: checkNames(s.checks) }));
      const summary = summaryOf(properties, view.progress.pages?.total);
      setResult({
        download,
        checks: checkNames(properties?.checks),
        ...(each.length > 1 && { steps: each }),
        ...(summary && { summary }),
      });
      setStatus(call.steps.length > 1 ? t('workflow.done', { count: call.steps.length }) : t('upload.success'));
    }
    return { ok: true, download, checks: [] };
  }

  async function run(call: JobCall, first: () => Promise<Job | RunOutcome>): Promise<RunOutcome> {
    setBusy(true);
    setFailed(false);
    setResult(undefined);
    setProgress(1);
    setStatus(t(call.batch ? 'batch.uploading' : 'upload.working'));
    try {
      const view = await first();
      if ('ok' in view) {
        setBusy(false);
        setProgress(100);
        return view;
      }
      remember(call.key, view.id);
      show(view, call);
      const ended = isFinal(view.state) ? view : await follow(view.id, call);
      const outcome = finish(ended, call);
      if (ended.state === 'done' && !isSignedIn()) recordLocalUse(call.steps.join(','));
      return outcome;
    } catch {
      setBusy(false);
      setProgress(100);
      return fail({ ok: false, reason: 'network' });
    }
  }

  /** Sends the form as a job and follows it; `names` are the files sent, shown until the job lists them. */
  function start(form: FormData, address: string, call: JobCall, names: string[] = []): Promise<RunOutcome> {
    setJob(undefined);
    setFiles(names);
    return run(call, async () => {
      const abort = (upload.current = new AbortController());
      // The upload fills the bar up to where the job's own progress starts.
      const sent = await sendForm(
        address,
        form,
        (p) => setProgress(Math.max(1, Math.round((constants.initialProgress * p) / 100))),
        abort.signal,
      ).finally(() => (upload.current = undefined));
      if (abort.signal.aborted) {
        // A job made as Cancel was pressed (its answer had come) is cancelled too.
        if (sent?.status === 202) await deleteJob((JSON.parse(sent.text) as Job).id);
        setStatus(t('batch.cancelled'));
        return { ok: false, reason: 'network' };
      }
      if (!sent) return fail({ ok: false, reason: 'network' });
      if (sent.status === 202) return JSON.parse(sent.text) as Job;
      // Refused: the contract's error, or what a bare status means (413, too large for nginx).
      const refused = outcomeOf(sent.status, sent.text);
      return fail(refused.ok ? { ok: false, reason: 'no-download' } : refused);
    });
  }

  /** The job kept under `call.key`, found again after a reload: followed while it runs, shown once ended. */
  async function resume(call: JobCall & { key: string }): Promise<void> {
    let id: string | null = null;
    try {
      id = sessionStorage.getItem(call.key);
    } catch {
      return;
    }
    if (!id) return;
    const res = await fetch(jobAddress(id)).catch(() => undefined);
    if (!res?.ok) return remember(call.key, undefined);
    const view = (await res.json()) as Job;
    setFiles((view.progress.perFile ?? []).map((f) => f.file));
    await run({ ...call, batch: call.batch || (view.progress.perFile?.length ?? 0) > 0 }, async () => view);
  }

  /** Cancels the job under way (its stream then says it was), or its upload before the job exists. */
  async function cancel(): Promise<void> {
    if (upload.current) return upload.current.abort();
    if (!job || isFinal(job.state)) return;
    await deleteJob(job.id);
  }

  /**
   * Back to idle: what was shown belongs to inputs that have changed; a kept job is forgotten, and one
   * still under way is cancelled, as nobody would see its result and it holds one of the visitor's places.
   */
  function reset(key?: string) {
    void cancel();
    stop.current();
    remember(key, undefined);
    setJob(undefined);
    setFiles([]);
    setBusy(false);
    setStatus('');
    setFailed(false);
    setProgress(0);
    setResult(undefined);
  }

  return { status, failed, progress, busy, result, job, files, start, resume, cancel, reset };
}
