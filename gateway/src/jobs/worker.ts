import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findTool, type Tool } from '@quire/catalog';
import { mapLimit, parallelism, ToolError, safeName, toToolError, type Job, type Logger } from '@quire/base';
import { createZip } from '@quire/pdf';
import { countUse, recordRun, type Db } from '../db.ts';
import type { GatewayMetrics } from '../metrics.ts';
import type { ResultStore } from '../results.ts';
import { runSteps, toStore } from '../runs.ts';
import { toWorkFolder, type ServiceClient, type StepInput } from '../service-client.ts';
import {
  isFinal,
  type FileProgress,
  type FileReport,
  type JobRecord,
  type JobResult,
  type RecordStore,
} from './records.ts';
import type { Webhooks } from './webhook.ts';

export interface JobRunnerDeps {
  records: RecordStore;
  store: ResultStore;
  client: ServiceClient;
  db: Db;
  metrics: GatewayMetrics;
  log: Logger;
  webhooks: Webhooks;
  /** Where each job's folder is: its uploads, then its work. Shared by every gateway and worker. */
  jobsDir: string;
  /** How long a live record is kept (the longest a job may wait and run). */
  liveTtlMs: number;
}

export const jobFolder = (jobsDir: string, id: string) => join(jobsDir, id);

/** Ends a job (the one change of a record that is final) and calls its webhook; false when it had ended already. */
export async function endJob(
  deps: Pick<JobRunnerDeps, 'records' | 'store' | 'webhooks'>,
  id: string,
  patch: Partial<JobRecord>,
): Promise<boolean> {
  const ended = await deps.records.update(id, { ...patch, endedAt: new Date().toISOString() }, deps.store.ttlMs);
  if (ended) deps.webhooks.notify(ended);
  return ended !== undefined;
}

/** The error a job ends with, as the contract says it. */
function jobError(err: unknown): { code: string; message: string } {
  const e = toToolError(err);
  return { code: e.code, message: e.message };
}

/**
 * Removes the folders of jobs older than `maxAgeMs`: those a worker never took (cancelled while queued, or
 * lost with a queue that was emptied). A job's own worker removes its folder when the job ends.
 */
export async function sweepJobFolders(jobsDir: string, maxAgeMs: number): Promise<void> {
  for (const name of await readdir(jobsDir).catch(() => [] as string[])) {
    const path = join(jobsDir, name);
    const s = await stat(path).catch(() => undefined);
    if (s && Date.now() - s.mtimeMs > maxAgeMs) await rm(path, { recursive: true, force: true });
  }
}

/** A worker's processor: runs a job by its id from its record and its folder, and records how it went. */
export function jobRunner(deps: JobRunnerDeps) {
  return async (id: string): Promise<void> => {
    const record = await deps.records.get(id);
    const folder = jobFolder(deps.jobsDir, id);
    // Cancelled while it waited, or long gone.
    if (!record || isFinal(record.state)) return void (await rm(folder, { recursive: true, force: true }));
    const chain = record.spec.steps.map((step) => findTool(step)!);
    const workdir = join(folder, 'work');
    await rm(workdir, { recursive: true, force: true });
    await mkdir(workdir, { recursive: true, mode: 0o700 });

    const abort = new AbortController();
    const stopWatching = await deps.records.watch(id, (r) => {
      if (r.state === 'cancelled') abort.abort(new ToolError('job_cancelled'));
    });
    const timer = setTimeout(() => abort.abort(new ToolError('timeout')), record.spec.timeoutMs);
    const began = Date.now();
    deps.metrics.jobWait.observe((began - Date.parse(record.createdAt)) / 1000);
    let outcome = 'ok';
    try {
      const started = await deps.records.update(
        id,
        { state: 'running', startedAt: new Date(began).toISOString(), progress: zeroProgress(record) },
        deps.liveTtlMs,
      );
      if (!started) return;
      const job: Job = { workdir, signal: abort.signal, deadline: began + record.spec.timeoutMs };
      const run: Run = { ...deps, record: started, chain, folder, job, progressWrites: Promise.resolve() };
      const result = record.spec.batch ? await runBatch(run) : await runOne(run);
      await endJob(deps, id, { state: 'done', result });
      await recordHistory(deps, started, result.download);
    } catch (err) {
      outcome = toToolError(abort.signal.aborted ? abort.signal.reason : err).code;
      // A cancelled job's record says so already.
      if (outcome !== 'job_cancelled')
        await endJob(deps, id, { state: 'failed', error: jobError(abort.signal.reason ?? err) });
    } finally {
      clearTimeout(timer);
      stopWatching();
      deps.metrics.jobDuration.observe({ tool: record.tool, outcome }, (Date.now() - began) / 1000);
      await rm(folder, { recursive: true, force: true });
    }
  };
}

function zeroProgress(record: JobRecord): JobRecord['progress'] {
  const { files, pages, perFile } = record.progress;
  const steps = record.spec.steps.length;
  return {
    files: { done: 0, total: files.total },
    ...(pages && { pages: { done: 0, total: pages.total } }),
    ...(perFile && { perFile }),
    ...(steps > 1 && !record.spec.batch && { steps: { done: 0, total: steps } }),
  };
}

interface Run extends JobRunnerDeps {
  record: JobRecord;
  chain: Tool[];
  folder: string;
  job: Job;
  /**
   * Progress is written one change at a time, each the newest when its turn comes: a batch's files end
   * side by side, and an older change written last would hide a newer one.
   */
  progressWrites: Promise<void>;
}

function stepsOf(run: Run, inputs: StepInput[]) {
  const { fields, stepFields, requestId } = run.record.spec;
  return { chain: run.chain, inputs, fields, stepFields, requestId, queued: true };
}

/** Counts one use of each of the chain's tools: a job, or a batch's file, whose result was kept. */
async function countUses(run: Run): Promise<void> {
  for (const tool of run.chain) await countUse(run.db, tool.id);
}

/** One call's worth: the files (none for a web address) through the chain, the last answer into the store. */
async function runOne(run: Run): Promise<JobResult> {
  const inputs = run.record.spec.inputs.map((i) => ({ path: join(run.folder, i.file), name: i.name, kind: i.kind! }));
  const onStep = async (done: number) => {
    const steps = run.record.progress.steps;
    // The last step's end is the job's: the files' count says so.
    if (steps && done < steps.total) await setProgress(run, { ...run.record.progress, steps: { ...steps, done } });
  };
  const onPages = (done: number) => {
    const pages = run.record.progress.pages;
    // Within the file: its end is the job's, which the files' count says.
    if (pages && done > pages.done && done < pages.total)
      void setProgress(run, { ...run.record.progress, pages: { ...pages, done } }).catch(() => undefined);
  };
  const steps = { ...stepsOf(run, inputs), onStep, onPages };
  const output = await runSteps(run.client, steps, run.job, toStore(run.store, {}));
  run.metrics.resultsSaved.inc();
  await countUses(run);
  await progress(run, run.record.spec.inputs.length, run.record.progress.pages?.total);
  return { download: output.saved, properties: output.properties };
}

/**
 * Each file through the chain on its own, as many at once as the machine runs engines: a file that
 * fails is reported and the others go on. The result is a zip of the results, in the order sent, and
 * report.json.
 */
async function runBatch(run: Run): Promise<JobResult> {
  const inputs = run.record.spec.inputs;
  let filesDone = 0;
  let pagesDone = 0;
  // Pages done so far of the files under way, as their services say.
  const under = new Map<number, number>();
  const pagesNow = () => [...under.values()].reduce((a, b) => a + b, pagesDone);
  const perFile = [...(run.record.progress.perFile ?? [])];
  const outcomes = await mapLimit(inputs, parallelism(), async (input, i) => {
    if (!input.error) {
      perFile[i] = { ...perFile[i]!, state: 'processing' };
      await progress(run, filesDone, pagesNow(), perFile);
    }
    const onPages = (done: number) => {
      under.set(i, Math.min(done, input.pages ?? done));
      void progress(run, filesDone, pagesNow(), perFile).catch(() => undefined);
    };
    const outcome = input.error ? { error: input.error } : await runFile(run, input, onPages);
    under.delete(i);
    filesDone++;
    pagesDone += input.pages ?? 0;
    const { file, pages } = perFile[i]!;
    perFile[i] =
      'error' in outcome
        ? { file, state: 'failed', ...(pages !== undefined && { pages }), error: outcome.error }
        : { file, state: 'done', ...(pages !== undefined && { pages }) };
    await progress(run, filesDone, pagesNow(), perFile);
    return outcome;
  });
  const report: FileReport[] = [];
  const zipPath = join(run.folder, 'results.zip');
  const zip = createZip(zipPath);
  const names = new Set<string>();
  try {
    for (const [i, input] of inputs.entries()) {
      const outcome = outcomes[i]!;
      if ('error' in outcome) {
        report.push({ file: input.name, outcome: 'failed', error: outcome.error });
        continue;
      }
      const name = names.has(outcome.name) ? `${i + 1}-${outcome.name}` : outcome.name;
      names.add(name);
      zip.add(outcome.saved, name);
      report.push({ file: input.name, outcome: 'ok', result: name, checks: outcome.properties });
    }
    const reportPath = join(run.folder, 'report.json');
    await writeFile(reportPath, JSON.stringify({ files: report }, null, 2));
    zip.add(reportPath, 'report.json');
    await zip.close();
  } catch (err) {
    await zip.abort();
    throw err;
  }
  const download = await run.store.saveStream(createReadStream(zipPath), safeName(`${run.record.tool}-results.zip`));
  run.metrics.resultsSaved.inc();
  return { download, report };
}

type FileOutcome = { error: { code: string; message: string } } | Awaited<ReturnType<typeof runSteps>>;

/** One file of a batch through the chain, its result kept in the job's work folder; its error when it fails. */
async function runFile(
  run: Run,
  input: JobRecord['spec']['inputs'][number],
  onPages: (pagesDone: number) => void,
): Promise<FileOutcome> {
  try {
    const path = join(run.folder, input.file);
    const output = await runSteps(
      run.client,
      { ...stepsOf(run, [{ path, name: input.name, kind: input.kind! }]), onPages },
      run.job,
      toWorkFolder(run.job.workdir),
    );
    await countUses(run);
    return output;
  } catch (err) {
    if (run.job.signal.aborted) throw run.job.signal.reason;
    return { error: jobError(err) };
  }
}

async function progress(
  run: Run,
  filesDone: number,
  pagesDone: number | undefined,
  perFile?: FileProgress[],
): Promise<void> {
  const { files, pages, steps } = run.record.progress;
  await setProgress(run, {
    files: { done: filesDone, total: files.total },
    ...(perFile && { perFile: [...perFile] }),
    ...(pages && { pages: { done: pagesDone ?? 0, total: pages.total } }),
    ...(steps && { steps: { done: filesDone === files.total ? steps.total : steps.done, total: steps.total } }),
  });
}

async function setProgress(run: Run, next: JobRecord['progress']): Promise<void> {
  run.record = { ...run.record, progress: next };
  const write = run.progressWrites.then(async () => {
    await run.records.update(run.record.id, { progress: run.record.progress }, run.liveTtlMs);
  });
  run.progressWrites = write.catch(() => undefined);
  await write;
}

/** A signed-in owner's history: the job's tools and its result while it lives. */
async function recordHistory(deps: JobRunnerDeps, record: JobRecord, download: string): Promise<void> {
  if (!record.spec.owner) return;
  await recordRun(deps.db, {
    userId: record.spec.owner,
    tool: record.spec.steps.join(','),
    download,
    expiresAt: new Date(Date.now() + deps.store.ttlMs),
  });
}
