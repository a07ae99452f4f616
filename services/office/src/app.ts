import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { countRestarts, createLogger, programVersion, requestIdMiddleware, type RestartReason } from '@quire/base';
import { createServiceApp, toolFolders, type ServiceKit, type ToolRun } from '@quire/service-kit';
import client from 'prom-client';
import { OfficeEngine, type EngineSettings } from './engine/engine.ts';
import { libreOfficeRoute } from './gotenberg/route.ts';
import { readSettings } from './settings.ts';

/**
 * The Gotenberg release whose LibreOffice route this service matches, field for field: every field of
 * that release's route is either done as Gotenberg documents it or refused with a 400 naming it.
 */
export const gotenbergApiVersion = '8.36.0';
const serviceVersion = '0.1.0';

export type OfficeApp = express.Express & {
  engine: OfficeEngine;
  /** The catalog's office tools, each from its folder under tools/, sharing this app's listeners. */
  tools: Record<string, ToolRun>;
  /** Settles once every tool's module has loaded (see toolFolders). */
  loaded: Promise<void>;
  /** Stops every listener and the helper, and removes their profiles. */
  close(): Promise<void>;
};

/**
 * The office service without listening, for tests and for main.ts: the kit's app (tools, metrics,
 * errors) with Gotenberg's LibreOffice route added, behind a thin front that answers Gotenberg's
 * `/health` and `/version`. The listeners start at once; `engine.start()` resolves when they are up.
 */
export function createApp(overrides: Partial<EngineSettings> = {}): OfficeApp {
  const settings = { ...readSettings(), ...overrides };
  const log = createLogger('office');
  let countRestart: ((reason: RestartReason) => void) | undefined;
  const engine = new OfficeEngine(settings, log, (reason) => countRestart?.(reason));
  let kit: ServiceKit | undefined;
  const { tools, loaded } = toolFolders('office', new URL('./tools/', import.meta.url), engine);

  const inner = createServiceApp({
    name: 'office',
    tools,
    health: () => Promise.resolve(engine.status()),
    routes: (app, k) => {
      kit = k;
      countRestart = countRestarts(k.metrics, 'libreoffice');
      officeMetrics(k, engine);
      libreOfficeRoute(app, k, engine);
    },
  });

  const app = express();
  app.disable('x-powered-by');
  app.use(sameIdForTrace);
  app.get('/health', requestIdMiddleware, (_req, res) => {
    const up = engine.healthy;
    const libreoffice = {
      status: up ? 'up' : 'down',
      timestamp: new Date().toISOString(),
      ...(up ? {} : { error: 'LibreOffice is unhealthy' }),
    };
    res.status(up ? 200 : 503).json({
      status: libreoffice.status,
      details: { libreoffice },
      // Beyond Gotenberg's shape, for our own probes and dashboards.
      service: 'office',
      engines: engine.status(),
      queue: { waiting: kit?.queue.size ?? 0, running: kit?.queue.active ?? 0 },
    });
  });
  // Gotenberg answers its version alone; ours is a valid semver that says what it is.
  app.get('/version', requestIdMiddleware, async (_req, res) => {
    const lo = await libreOfficeVersion(settings.soffice);
    res.type('text/plain; charset=UTF-8').send(`${gotenbergApiVersion}-quire.${serviceVersion}+libreoffice.${lo}`);
  });
  app.use(inner);
  void engine.start().catch((err: unknown) => log.error('LibreOffice did not start', { err: String(err) }));
  return Object.assign(app, { engine, tools, loaded, close: () => engine.close() });
}

/**
 * A Gotenberg client names its request with Gotenberg-Trace; make that the request id the kit logs
 * with (X-Request-Id, when the caller gave none), and pin one id for the whole request.
 */
function sameIdForTrace(req: Request, _res: Response, next: NextFunction): void {
  if (!req.headers['x-request-id']) req.headers['x-request-id'] = req.get('gotenberg-trace') || randomUUID();
  next();
}

/** Ready listeners on the kit's registry, and Gotenberg's names for queue size and restarts. */
function officeMetrics(kit: ServiceKit, engine: OfficeEngine): void {
  const registers = [kit.metrics.registry];
  new client.Gauge({
    name: 'quire_office_listeners_ready',
    help: 'LibreOffice listeners up and taking jobs',
    registers,
    collect() {
      this.set(engine.status().instances.filter((i) => i.state === 'idle' || i.state === 'busy').length);
    },
  });
  new client.Gauge({
    name: 'gotenberg_libreoffice_requests_queue_size',
    help: 'Conversions waiting for a LibreOffice listener (Gotenberg name)',
    registers,
    collect() {
      this.set(kit.queue.size + engine.waiting);
    },
  });
  new client.Gauge({
    name: 'gotenberg_libreoffice_restarts_count',
    help: 'LibreOffice listener restarts (Gotenberg name)',
    registers,
    collect() {
      const r = engine.restarts;
      this.set(r.after_jobs + r.timeout + r.crash);
    },
  });
}

let version: Promise<string> | undefined;

function libreOfficeVersion(soffice: string): Promise<string> {
  version ??= programVersion(soffice, ['--version'], 15_000)
    .then((line) => /LibreOffice ([\d.]+)/.exec(line)?.[1] ?? 'unknown')
    .catch(() => 'unknown');
  return version;
}
