import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, expect } from 'vitest';
import { removeOutputs } from './helpers.ts';

const workRoot = mkdtempSync(join(tmpdir(), 'pdf-extract-work-'));
process.env.WORK_DIR = workRoot;
process.env.LOG_LEVEL ??= 'error';

/**
 * The service in-process for one test file, pdf.js loaded before the tests' clocks start. After the
 * file's tests, no job may have left anything in the work root.
 */
export function useExtract(): () => Express {
  let app: Express;
  beforeAll(async () => {
    app = (await import('../src/app.ts')).createApp();
    await (await import('../src/pdfjs.ts')).loadPdfjs();
  }, 120_000);
  afterAll(async () => {
    // A request's folder goes just after its answer: waited for, within a bound that only a leak reaches.
    for (const end = Date.now() + 30_000; readdirSync(workRoot).length > 0 && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const left = readdirSync(workRoot);
    rmSync(workRoot, { recursive: true, force: true });
    removeOutputs();
    expect(left).toEqual([]);
  });
  return () => app;
}
