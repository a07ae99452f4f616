import type { ErrorCode } from '@quire/catalog/errors';

export interface Counter {
  done: number;
  total: number;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** A job as GET /api/v1/jobs/{id} shows it (docs/api.md, "Jobs"). */
export interface Job {
  id: string;
  state: JobState;
  progress: {
    files: Counter;
    pages?: Counter;
    steps?: Counter;
    perFile?: FileProgress[];
  };
  result?: {
    download: string;
    properties?: Properties;
    report?: { file: string; outcome: 'ok' | 'failed'; result?: string; error?: JobError; checks?: Properties }[];
  };
  error?: JobError & { details?: unknown };
}

/** One file of a batch as the job says it goes. */
export interface FileProgress {
  file: string;
  state: 'queued' | 'processing' | 'done' | 'failed';
  pages?: number;
  error?: JobError;
}

export interface JobError {
  code: ErrorCode;
  message: string;
}

/** A tool's properties of its result: what was checked, and what it measured. */
export type Properties = { checks?: unknown; steps?: { tool: string; checks: unknown }[] } & Record<string, unknown>;

export const isFinal = (state: JobState) => state === 'done' || state === 'failed' || state === 'cancelled';

/** The names of what was checked, from a tool's properties. */
export const checkNames = (checks: unknown): string[] =>
  Array.isArray(checks) ? checks.filter((c): c is string => typeof c === 'string') : [];

export type RowState = 'uploading' | 'queued' | 'processing' | 'done' | 'failed' | 'cancelled';

/** One file of a batch as its row shows it. */
export interface Row {
  file: string;
  state: RowState;
  pages?: number;
  error?: JobError;
  checks: string[];
  /** Its own download, once the batch is done and the file succeeded, and the result's name. */
  download?: string;
  name?: string;
  summary?: Summary;
}

/**
 * Each file's row: the files chosen while they upload (no job yet), then as the job says, its report
 * once it is done. A cancelled or failed job keeps no result: its files that had not failed are cancelled, or
 * failed with the job's error.
 */
export function rowsOf(files: string[], job: Job | undefined): Row[] {
  if (!job) return files.map((file) => ({ file, state: 'uploading', checks: [] }));
  const perFile = job.progress.perFile ?? files.map((file): FileProgress => ({ file, state: 'queued' }));
  return perFile.map((entry, i) => {
    const report = job.result?.report?.[i];
    const base = { file: entry.file, checks: [], ...(entry.pages !== undefined && { pages: entry.pages }) };
    if (report?.outcome === 'ok')
      return {
        ...base,
        state: 'done',
        checks: checkNames(report.checks?.checks),
        download: `/api/v1/jobs/${encodeURIComponent(job.id)}/files/${i + 1}`,
        ...(report.result && { name: report.result }),
        ...withSummary(summaryOf(report.checks, entry.pages)),
      };
    const error = report?.error ?? entry.error;
    if (error || entry.state === 'failed') return { ...base, state: 'failed', ...(error && { error }) };
    // A job that failed as a whole (its time ran out, say) failed its unfinished files with its error.
    if (job.state === 'failed') return { ...base, state: 'failed', ...(job.error && { error: job.error }) };
    if (job.state === 'cancelled') return { ...base, state: 'cancelled' };
    return { ...base, state: entry.state };
  });
}

const withSummary = (summary: Summary | undefined) => (summary ? { summary } : {});

/** What a result changed, as its card says it: a smaller file, or pages in and out. */
export type Summary =
  { kind: 'size'; before: number; after: number; saved: number } | { kind: 'pages'; before?: number; after: number };

/**
 * From a tool's properties: compress's sizes before and after and the share saved (a whole percentage,
 * never below 0), or the pages of the result with those given when they are known.
 */
export function summaryOf(properties: Properties | undefined, pagesIn?: number): Summary | undefined {
  if (!properties) return undefined;
  const { bytesBefore, bytesAfter, pages } = properties;
  if (typeof bytesBefore === 'number' && typeof bytesAfter === 'number' && bytesBefore > 0) {
    const saved = Math.max(0, Math.round((100 * (bytesBefore - bytesAfter)) / bytesBefore));
    return { kind: 'size', before: bytesBefore, after: bytesAfter, saved };
  }
  const after =
    typeof pages === 'number' ? pages : typeof properties.pageCount === 'number' ? properties.pageCount : undefined;
  if (after === undefined) return undefined;
  return { kind: 'pages', after, ...(pagesIn !== undefined && { before: pagesIn }) };
}

/** Where a tool page keeps the job it follows, so that a reload finds it again. */
export const jobKey = (tool: string) => `quire:job:${tool}`;
