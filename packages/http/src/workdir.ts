import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';

export function workRoot(): string {
  return process.env.WORK_DIR || join(tmpdir(), 'quire-work');
}

/** A fresh private directory for one request's files. */
async function createWorkdir(prefix: string): Promise<string> {
  const root = workRoot();
  await mkdir(root, { recursive: true, mode: 0o700 });
  return mkdtemp(join(root, `${prefix}-`));
}

async function removeWorkdir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** Gives the request `res.locals.workdir` and removes it, whatever happens, once the response is over. */
export function workdirMiddleware(prefix: string) {
  return async (_req: Request, res: Response, next: NextFunction) => {
    try {
      const dir = await createWorkdir(prefix);
      res.locals.workdir = dir;
      res.on('close', () => void removeWorkdir(dir));
      next();
    } catch (err) {
      next(err);
    }
  };
}
