import { copyFile, link, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { stem, timeLeft, ToolError } from '@quire/base';
import type { CsvDialect, Family, OfficeFormat } from '@quire/detect';
import { EngineError, type OfficeEngine } from './engine/engine.ts';

export interface ConvertJob {
  /** The upload, as stored. */
  path: string;
  /** The client's name for it, for the name LibreOffice sees (sheet names of a CSV come from it). */
  name: string;
  format: OfficeFormat;
  /** The application the tool expects; undefined lets any document through (the Gotenberg route). */
  expect?: Family;
  password?: string;
  pageRange?: string;
  landscape?: boolean;
  exportOptions?: Record<string, string | number | boolean>;
  workdir: string;
  signal: AbortSignal;
  deadline: number;
}

export interface Converted {
  path: string;
  family: string;
  ms: number;
}

let jobs = 0;
const deadlineMargin = 2000;

/**
 * One document to PDF on a warm listener. The upload is linked into a directory of its own under a
 * plain ASCII name with the extension of what it really is, so LibreOffice's own type detection
 * agrees with ours. Throws EngineError.
 */
export async function convertDocument(engine: OfficeEngine, job: ConvertJob): Promise<Converted> {
  if (job.signal.aborted) throw job.signal.reason ?? new EngineError('timeout', 'cancelled');
  const dir = join(job.workdir, `lo-${++jobs}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const input = join(dir, `${asciiStem(job.name)}.${job.format.ext}`);
  await link(job.path, input).catch(() => copyFile(job.path, input));
  const output = join(dir, 'out.pdf');
  const request = {
    input,
    output,
    ...(job.password ? { password: job.password } : {}),
    ...(job.pageRange ? { pageRange: job.pageRange } : {}),
    ...(job.landscape ? { landscape: true } : {}),
    ...(job.expect ? { expect: job.expect } : {}),
    ...(job.format.csv
      ? { importFilter: 'Text - txt - csv (StarCalc)', importOptions: csvFilterOptions(job.format.csv) }
      : {}),
    ...(job.exportOptions ? { exportOptions: job.exportOptions } : {}),
  };
  // Stop a job a little before the request's own deadline, so that the listener is dead and the
  // answer is ours (a clean timeout) before the kit gives up on the request.
  const convert = () =>
    engine.convert(request, {
      signal: job.signal,
      timeoutMs: Math.min(engine.settings.jobTimeoutMs, timeLeft(job.deadline - deadlineMargin)),
    });
  let result: Awaited<ReturnType<OfficeEngine['convert']>>;
  try {
    result = await convert();
  } catch (err) {
    if (!(err instanceof EngineError && err.kind === 'crashed') || job.signal.aborted) throw err;
    // A listener lost mid-job may have been ended from outside: the document gets one more try on a
    // fresh one. Lost twice on the same document, it is the document that LibreOffice cannot read.
    result = await convert().catch((again: unknown) => {
      if (again instanceof EngineError && again.kind === 'crashed' && !job.signal.aborted) {
        throw new EngineError('load_failed', `LibreOffice stopped twice on this document: ${again.message}`);
      }
      throw again;
    });
  }
  const made = await stat(output).catch(() => undefined);
  if (!made || made.size === 0) throw new EngineError('export_failed', 'no PDF was written');
  return { path: output, family: result.family, ms: result.ms };
}

/** A file name stem LibreOffice handles everywhere: ASCII letters, digits, dot, dash, underscore. */
export function asciiStem(name: string): string {
  const clean = stem(name)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, 60);
  return clean || 'document';
}

/** How many columns get an explicit format; beyond that LibreOffice's default applies. */
const maxTextColumns = 1024;

/**
 * LibreOffice's CSV import options: our separator, `"` quotes, the detected charset (76 UTF-8,
 * 1 Windows-1252), and every column read as text, so values print exactly as written (007 stays
 * 007, 3/4 stays 3/4) and nothing starting with `=` is ever evaluated as a formula.
 */
export function csvFilterOptions(csv: CsvDialect): string {
  const columns = Math.min(csv.columns, maxTextColumns);
  const formats = Array.from({ length: columns }, (_, i) => `${i + 1}/2`).join('/');
  const charset = csv.encoding === 'utf8' ? 76 : 1;
  return [
    csv.separator.charCodeAt(0),
    34,
    charset,
    1,
    formats,
    1033,
    'true',
    'false',
    'false',
    'false',
    'false',
    -1,
    'false',
  ].join(',');
}

const familyLabel: Record<Family, string> = {
  writer: 'a text document',
  calc: 'a spreadsheet',
  impress: 'a presentation',
};

/** An engine failure as the contract's error, with a message a person can act on. */
export function toContractError(err: unknown, expect?: Family): ToolError {
  if (err instanceof ToolError) return err;
  if (!(err instanceof EngineError)) return new ToolError('internal', undefined, { cause: err });
  switch (err.kind) {
    case 'password_required':
      return new ToolError('password_required', 'This document is protected. Please enter its password.', {
        cause: err,
      });
    case 'wrong_password':
      return new ToolError('wrong_password', undefined, { cause: err });
    case 'load_failed':
      return new ToolError('damaged_input', 'The document is damaged and could not be read.', { cause: err });
    case 'wrong_family':
      return new ToolError(
        'unsupported_type',
        expect ? `This file is not ${familyLabel[expect]}, so this tool cannot convert it.` : undefined,
        { cause: err },
      );
    case 'export_failed':
      return new ToolError('damaged_input', 'The document could not be converted to PDF.', { cause: err });
    case 'timeout':
      return new ToolError('timeout', undefined, { cause: err });
    case 'crashed':
      return new ToolError('internal', 'The converter stopped unexpectedly. Please try again.', { cause: err });
    case 'unavailable':
      return new ToolError('not_available', undefined, { cause: err });
  }
}
