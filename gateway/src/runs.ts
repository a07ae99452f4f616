import type { NextFunction, Request, Response } from 'express';
import { checkWorkflow, findTool, takesPassword, takesUrl, type Tool } from '@quire/catalog';
import { ToolError, safeName, toToolError, trackRequest, type Job, type Logger } from '@quire/base';
import { checkPublicUrl, checkToolRequest, runJob } from '@quire/http';
import { userOf } from './auth.ts';
import { countUse, recordRun, type Db } from './db.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { ResultStore } from './results.ts';
import type { ServiceClient, StepInput, StepOutput } from './service-client.ts';

export interface RunDeps {
  db: Db;
  store: ResultStore;
  client: ServiceClient;
  metrics: GatewayMetrics;
  log: Logger;
}

/** Resolves the chain a request asks for before anything is uploaded: one tool, or a checked workflow. */
export function resolveChain(req: Request, res: Response, next: NextFunction): void {
  const q = req.query;
  const isWorkflow = req.path.endsWith('/workflows') || q.workflow !== undefined;
  if (isWorkflow) {
    const steps = typeof q.steps === 'string' ? q.steps.split(',').map((s) => s.trim()) : [];
    const checked = checkWorkflow(steps);
    if (!checked.ok) return next(new ToolError(checked.code, checked.message));
    res.locals.chain = checked.value;
    return next();
  }
  const id = typeof req.params.toolId === 'string' ? req.params.toolId : typeof q.tool === 'string' ? q.tool : '';
  const tool = findTool(id);
  if (!tool)
    return next(new ToolError('unknown_tool', id ? `There is no tool called "${id}".` : 'Please name a tool.'));
  res.locals.chain = [tool];
  next();
}

/** The fields a step passes on to its service: the tool's own options, the password and the URL. */
function forwardedFields(tool: Tool, body: Record<string, unknown>): Record<string, string> {
  const allowed = new Set(Object.keys((tool.options as { shape?: object }).shape ?? {}));
  if (takesPassword(tool)) allowed.add('password');
  if (takesUrl(tool)) allowed.add('url');
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (allowed.has(k) && typeof value === 'string' && value !== '') fields[k] = value;
  }
  return fields;
}

/** Runs a tool or a chain of tools on the upload and answers with the stored result's name. */
export function runChain(deps: RunDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const chain = res.locals.chain as Tool[];
    const first = chain[0]!;
    const label = chain.length > 1 ? 'workflow' : first.id;
    // One count per public request, under its tool or `workflow`; the services count each step.
    const finish = trackRequest(deps, label, res.locals.requestId as string);
    try {
      const request = await checkToolRequest(first, req);
      if (request.url) await checkPublicUrl(request.url);
      const steps: Steps = {
        chain,
        inputs: request.inputs.map(({ path, name, kind }) => ({ path, name, kind })),
        fields: forwardedFields(first, req.body ?? {}),
        requestId: res.locals.requestId as string,
      };
      // No queue here (each service keeps its own); each step may take a whole call's time.
      const limits = { timeoutMs: deps.client.timeoutMs * chain.length };
      const output = await runJob(res, res.locals.workdir as string, limits, (job) =>
        runSteps(deps.client, steps, job),
      );
      const download = await deps.store.save(output.path, safeName(output.name));
      deps.metrics.resultsSaved.inc();
      // Counted once the result is kept: a run whose result could not be stored was no use to anyone.
      for (const tool of chain) await countUse(deps.db, tool.id);
      const user = userOf(res);
      if (user) {
        // A signed-in user's history: the tool (a workflow's steps, comma-separated) and the result while it lives.
        await recordRun(deps.db, {
          userId: user.uid,
          tool: chain.map((t) => t.id).join(','),
          download,
          expiresAt: new Date(Date.now() + deps.store.ttlMs),
        });
      }
      res.json({ download, properties: output.properties });
      finish('ok');
    } catch (err) {
      finish(toToolError(err).code);
      next(err);
    }
  };
}

interface Steps {
  chain: Tool[];
  inputs: StepInput[];
  /** The first step's fields; later steps take their defaults. */
  fields: Record<string, string>;
  requestId: string;
}

/** Each step on the one before's result; in a workflow, an error names the step at fault. */
async function runSteps(client: ServiceClient, steps: Steps, job: Job): Promise<StepOutput> {
  let inputs = steps.inputs;
  let output: StepOutput | undefined;
  for (const [i, tool] of steps.chain.entries()) {
    try {
      const fields = i === 0 ? steps.fields : {};
      output = await client.run({ tool, inputs, fields, requestId: steps.requestId, job });
    } catch (err) {
      const e = toToolError(err);
      if (steps.chain.length === 1) throw e;
      throw new ToolError(e.code, `Step ${i + 1} (${tool.name}): ${e.message}`, { cause: e.cause, headers: e.headers });
    }
    inputs = [{ path: output.path, name: output.name, kind: output.kind }];
  }
  return output!;
}
