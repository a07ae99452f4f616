import { describe, expect, it } from 'vitest';
import { rowsOf, summaryOf, type Job } from './job-view.ts';

const running: Job = {
  id: 'abcdefghijklmnopqrstuvwx',
  state: 'running',
  progress: {
    files: { done: 1, total: 3 },
    perFile: [
      { file: 'a.pdf', state: 'done', pages: 2 },
      { file: 'b.pdf', state: 'processing', pages: 5 },
      { file: 'c.txt', state: 'failed', error: { code: 'unsupported_type', message: 'Not a PDF' } },
    ],
  },
};

describe('rowsOf', () => {
  it('shows the files chosen as uploading until there is a job', () => {
    expect(rowsOf(['a.pdf', 'b.pdf'], undefined).map((r) => r.state)).toEqual(['uploading', 'uploading']);
  });

  it("follows each file's state, its pages and a refused file's error", () => {
    const rows = rowsOf([], running);
    expect(rows.map((r) => r.state)).toEqual(['done', 'processing', 'failed']);
    expect(rows[1]!.pages).toBe(5);
    expect(rows[2]!.error?.code).toBe('unsupported_type');
    expect(rows[0]!.download).toBeUndefined();
  });

  it("gives a done batch's files their own download, checks and summary", () => {
    const done: Job = {
      ...running,
      state: 'done',
      result: {
        download: 'x-results.zip',
        report: [
          {
            file: 'a.pdf',
            outcome: 'ok',
            result: 'a.pdf',
            checks: { checks: ['opens', 7], bytesBefore: 200, bytesAfter: 50 },
          },
          { file: 'b.pdf', outcome: 'failed', error: { code: 'damaged_input', message: 'Broken' } },
          { file: 'c.txt', outcome: 'failed', error: { code: 'unsupported_type', message: 'Not a PDF' } },
        ],
      },
    };
    const rows = rowsOf([], done);
    expect(rows[0]).toMatchObject({
      state: 'done',
      checks: ['opens'],
      download: '/api/v1/jobs/abcdefghijklmnopqrstuvwx/files/1',
      summary: { kind: 'size', before: 200, after: 50, saved: 75 },
    });
    expect(rows[1]).toMatchObject({ state: 'failed', error: { code: 'damaged_input' } });
    expect(rows[1]!.download).toBeUndefined();
  });

  it("marks a cancelled job's files cancelled (none keeps a result), a failed one with its error", () => {
    const rows = rowsOf([], { ...running, state: 'cancelled' });
    expect(rows.map((r) => r.state)).toEqual(['cancelled', 'cancelled', 'failed']);
  });

  it("fails a failed job's unfinished files with the job's error", () => {
    const error = { code: 'timeout' as const, message: 'Too long' };
    const rows = rowsOf([], { ...running, state: 'failed', error });
    expect(rows.map((r) => [r.state, r.error?.code])).toEqual([
      ['failed', 'timeout'],
      ['failed', 'timeout'],
      ['failed', 'unsupported_type'],
    ]);
  });
});

describe('summaryOf', () => {
  it("says compress's sizes and the share saved, never below nothing", () => {
    expect(summaryOf({ bytesBefore: 1000, bytesAfter: 333 })).toEqual({
      kind: 'size',
      before: 1000,
      after: 333,
      saved: 67,
    });
    expect(summaryOf({ bytesBefore: 1000, bytesAfter: 1200 })).toMatchObject({ saved: 0 });
  });

  it("says a result's pages, with those given when known, and nothing without them", () => {
    expect(summaryOf({ pages: 4 }, 11)).toEqual({ kind: 'pages', before: 11, after: 4 });
    expect(summaryOf({ pages: 4 })).toEqual({ kind: 'pages', after: 4 });
    expect(summaryOf({ checks: ['opens'] })).toBeUndefined();
    expect(summaryOf(undefined)).toBeUndefined();
  });
});
