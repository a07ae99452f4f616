import express, { type NextFunction, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { ToolError, createLogger, requestIdMiddleware, type Logger } from '@quire/base';
import { errorHandler, workdirMiddleware } from '@quire/http';
import { accountRoutes } from './account.ts';
import { authMiddleware } from './auth.ts';
import { apiDocsHtml, catalogJson, openApi } from './catalog-api.ts';
import { contactMailer } from './mail.ts';
import { siteDataRoutes } from './site-data.ts';
import type { GatewayConfig } from './config.ts';
import { usageStats, type Db } from './db.ts';
import { jobBackend, setUpJobs, type JobBackend } from './jobs/index.ts';
import { createGatewayMetrics } from './metrics.ts';
import { sendResult, type ResultStore } from './results.ts';
import { resolveChain, runChain } from './runs.ts';
import { loadSavedWorkflow, workflowRoutes } from './workflows.ts';
import { ServiceClient } from './service-client.ts';

export interface GatewayDeps {
  config: GatewayConfig;
  db: Db;
  store: ResultStore;
  log?: Logger;
  /** The jobs' queue and records; default: as the config says (Redis, else this process). */
  jobs?: JobBackend;
}

/** The public API (docs/api.md) as an express app, without listening. */
export function createGatewayApp({
  config,
  db,
  store,
  log = createLogger('gateway'),
  jobs = jobBackend(config, log),
}: GatewayDeps): express.Express {
  const metrics = createGatewayMetrics(config.resultsDir);
  const client_ = new ServiceClient(config.serviceUrls, config.serviceTimeoutMs);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestIdMiddleware);
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    next();
  });
  // Every call, tool calls included, says who makes it: a Firebase ID token, or nobody.
  app.use(authMiddleware(config.firebase));

  const limiter = config.rateLimitPerMinute
    ? rateLimit({
        windowMs: 60_000,
        limit: config.rateLimitPerMinute,
        standardHeaders: 'draft-7',
        legacyHeaders: false,
        handler: (req: Request, _res: Response, next: NextFunction) => {
          const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
          const seconds = reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : 60;
          next(new ToolError('rate_limited', undefined, { headers: { 'Retry-After': String(seconds) } }));
        },
      })
    : (_req: Request, _res: Response, next: NextFunction) => next();

  /** Refuses a body over the limit before reading it, as nginx does in front. */
  const bodyLimit = (req: Request, _res: Response, next: NextFunction) => {
    const length = Number(req.get('content-length') ?? 0);
    next(length > config.uploadLimitBytes ? new ToolError('file_too_large') : undefined);
  };

  // Jobs run here unless this process only answers the API; a worker alone answers health and metrics only.
  // A saved workflow (?saved=) is loaded before its chain is resolved, by the synchronous call and the job alike.
  const guards = [limiter, bodyLimit, loadSavedWorkflow(db)];
  const jobRoutes = setUpJobs({ config, backend: jobs, db, store, client: client_, metrics, log, guards });
  if (config.jobs.role !== 'worker') {
    const run = [
      ...guards,
      resolveChain,
      workdirMiddleware('gateway'),
      runChain({ db, store, client: client_, metrics, log, uploadLimitBytes: config.uploadLimitBytes }),
    ];
    app.post('/api.php', ...run);
    app.post('/api/v1/tools/:toolId', ...run);
    app.post('/api/v1/workflows', ...run);
    app.use(jobRoutes);

    app.use(
      siteDataRoutes(
        db,
        limiter,
        { uploadLimitMb: config.uploadLimitBytes / 1024 / 1024, resultTtlSeconds: config.resultTtlSeconds },
        { mail: contactMailer(config.smtp), log },
      ),
    );
    app.use(accountRoutes(config.firebase, db));
    app.use(workflowRoutes(db, limiter));

    const usage = async (_req: Request, res: Response) => res.json({ stats: await usageStats(db) });
    app.get('/track_usage.php', usage);
    app.get('/api/v1/usage', usage);

    app.get('/api/v1/tools', (_req, res) => res.json(catalogJson()));
    app.get('/api/v1/openapi.json', (_req, res) => res.json(openApi()));
    app.get('/api/v1/docs', (_req, res) => res.type('html').send(apiDocsHtml()));

    app.get('/uploads/:name', async (req, res, next) => {
      const found = await store.find(req.params.name);
      if (!found) return next(new ToolError('not_found', 'This file does not exist or has expired.'));
      sendResult(res, found);
    });
  }

  app.get('/healthz', async (_req, res) => {
    res.json({ status: 'up', services: await client_.health() });
  });
  app.get('/metrics', async (_req, res) => {
    metrics.resultsStored.set(await store.sweep());
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  app.use((_req, _res, next) => next(new ToolError('not_found')));
  app.use(errorHandler(log));
  return app;
}
