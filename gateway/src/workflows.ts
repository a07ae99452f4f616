import { randomBytes } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { ToolError } from '@quire/base';
import { checkWorkflow, type WorkflowStep } from '@quire/catalog';
import { userOf } from './auth.ts';
import type { Db } from './db.ts';

/** A workflow as saved, loaded and shared (also the JSON file the site downloads and loads again). */
export interface SavedWorkflow {
  id: string;
  name: string;
  steps: WorkflowStep[];
  createdAt: string;
}

/** 144 random bits: a saved workflow is found by whoever holds its link, and by no one else. */
const newId = () => randomBytes(18).toString('base64url');
const idPattern = /^[A-Za-z0-9_-]{24}$/;

/** The body of a workflow to save: the file the site writes, whose other fields are ignored. */
const workflowBody = z.object({
  name: z.string().trim().max(100).optional(),
  steps: z
    .array(
      z.object({
        tool: z.string().max(64),
        options: z.record(z.string().max(64), z.union([z.string().max(1000), z.number(), z.boolean()])).optional(),
      }),
    )
    .max(50),
});

/** A saved workflow's address on the site. */
export const workflowLink = (id: string) => `/workflow/saved/${id}`;

/** A workflow's steps checked as a run would check them; invalid_workflow naming the step at fault. */
function checkedSteps(body: unknown): { name: string; steps: WorkflowStep[] } {
  const parsed = workflowBody.safeParse(body);
  if (!parsed.success)
    throw new ToolError('invalid_workflow', 'A workflow is a list of steps, each a tool and its options.');
  const { steps, name } = parsed.data;
  const checked = checkWorkflow(steps);
  if (!checked.ok) throw new ToolError(checked.code, checked.message);
  return { name: name || checked.value.tools.map((t) => t.name).join(' → '), steps };
}

export async function findWorkflow(db: Db, id: string): Promise<SavedWorkflow | undefined> {
  if (!idPattern.test(id)) return undefined;
  const row = await db.selectFrom('workflows').selectAll().where('id', '=', id).executeTakeFirst();
  return (
    row && { id: row.id, name: row.name, steps: JSON.parse(row.steps) as WorkflowStep[], createdAt: row.created_at }
  );
}

/**
 * Saving and reading workflows (docs/api.md, "Saved workflows"): a workflow with its options is kept
 * under an unguessable id; a signed-in user's own are listed for them.
 */
export function workflowRoutes(db: Db, limiter: express.RequestHandler) {
  const router = express.Router();
  const json = express.json({ limit: '64kb' });
  router.post('/api/v1/workflows/saved', limiter, json, (req: Request, res: Response, next: NextFunction) => {
    const save = async () => {
      const { name, steps } = checkedSteps(req.body);
      const saved: SavedWorkflow = { id: newId(), name, steps, createdAt: new Date().toISOString() };
      await db
        .insertInto('workflows')
        .values({
          id: saved.id,
          name,
          steps: JSON.stringify(steps),
          user_id: userOf(res)?.uid ?? null,
          created_at: saved.createdAt,
        })
        .execute();
      res
        .status(201)
        .location(`/api/v1/workflows/saved/${saved.id}`)
        .json({ ...saved, link: workflowLink(saved.id) });
    };
    save().catch(next);
  });
  router.get('/api/v1/workflows/saved/:id', (req: Request, res: Response, next: NextFunction) => {
    findWorkflow(db, String(req.params.id)).then((saved) => {
      if (!saved) return next(new ToolError('not_found', 'There is no saved workflow with this link.'));
      res.json({ ...saved, link: workflowLink(saved.id) });
    }, next);
  });
  router.get('/api/v1/me/workflows', (_req: Request, res: Response, next: NextFunction) => {
    const user = userOf(res);
    if (!user) return next(new ToolError('invalid_token', 'Please sign in to see your workflows.'));
    db.selectFrom('workflows')
      .select(['id', 'name', 'steps', 'created_at'])
      .where('user_id', '=', user.uid)
      .orderBy('created_at', 'desc')
      .limit(100)
      .execute()
      .then((rows) => {
        res.setHeader('Cache-Control', 'private, no-store');
        res.json({
          workflows: rows.map((r) => ({
            id: r.id,
            name: r.name,
            steps: JSON.parse(r.steps) as WorkflowStep[],
            createdAt: r.created_at,
            link: workflowLink(r.id),
          })),
        });
      }, next);
  });
  return router;
}

/** `?saved={id}` on a workflow call or a job: the saved workflow's steps, for resolveChain. */
export function loadSavedWorkflow(db: Db) {
  return (req: Request, res: Response, next: NextFunction) => {
    const id = req.query.saved;
    if (id === undefined) return next();
    findWorkflow(db, String(id)).then((saved) => {
      if (!saved) return next(new ToolError('not_found', 'There is no saved workflow with this link.'));
      res.locals.savedSteps = saved.steps;
      next();
    }, next);
  };
}
