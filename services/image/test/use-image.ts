import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, expect } from 'vitest';
import { cleanScratch } from './helpers.ts';

// Work files go to a directory of the tests' own, checked empty at the end: nothing may leak.
const workDir = mkdtempSync(join(tmpdir(), 'quire-image-work-'));
process.env.WORK_DIR = workDir;

/** The service in-process for one test file; after its tests, no job may have left anything behind. */
export function useImageService(): () => Express {
  let app: Express;
  beforeAll(async () => {
    app = (await import('../src/app.ts')).createApp();
  });
  afterAll(async () => {
    // A request's folder goes just after its answer: waited for, within a bound that only a leak reaches.
    for (const end = Date.now() + 30_000; readdirSync(workDir).length > 0 && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const left = readdirSync(workDir);
    rmSync(workDir, { recursive: true, force: true });
    cleanScratch();
    expect(left).toEqual([]);
  });
  return () => app;
}
