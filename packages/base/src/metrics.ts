import client from 'prom-client';
import type { Logger } from './log.ts';

/** Why an engine (a LibreOffice listener, Chromium) was replaced: planned after N jobs, a job that hung, a crash. */
const restartReasons = ['after_jobs', 'timeout', 'crash'] as const;
export type RestartReason = (typeof restartReasons)[number];

/**
 * One registry per app, so in-process tests do not share counters. Labels are bounded: tool ids, error
 * codes (or HTTP statuses on the Gotenberg route), engine names and restart reasons.
 */
export function createMetrics(service: string) {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new client.Counter({
      name: 'quire_requests_total',
      help: 'Tool requests by tool and outcome (ok or an error code)',
      labelNames: ['tool', 'outcome'] as const,
      registers: [registry],
    }),
    duration: new client.Histogram({
      name: 'quire_request_duration_seconds',
      help: 'Time to answer a tool request',
      labelNames: ['tool'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    inFlight: new client.Gauge({
      name: 'quire_requests_in_flight',
      help: 'Tool requests being answered',
      registers: [registry],
    }),
    verificationFailures: new client.Counter({
      name: 'quire_verification_failures_total',
      help: 'Results held back because they broke a promise of their tool, by the check that failed',
      labelNames: ['tool', 'check'] as const,
      registers: [registry],
    }),
    engineRestarts: new client.Counter({
      name: 'quire_engine_restarts_total',
      help: 'Engine restarts by engine (libreoffice, chromium) and reason (after_jobs is planned)',
      labelNames: ['engine', 'reason'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Counts an engine's restarts; every reason starts at 0, so that a first restart shows as an increase. */
export function countRestarts(metrics: Metrics, engine: string): (reason: RestartReason) => void {
  for (const reason of restartReasons) metrics.engineRestarts.inc({ engine, reason }, 0);
  return (reason) => metrics.engineRestarts.inc({ engine, reason });
}

/**
 * Starts counting one tool request: in flight until `finish` is called with its outcome (ok or an
 * error code), which records the count and duration and writes one log line with the request id.
 * The line names the tool and outcome only: no file names, fields or passwords.
 */
export function trackRequest(
  kit: { metrics: Metrics; log: Logger },
  tool: string,
  requestId: string | undefined,
): (outcome: string) => void {
  const end = kit.metrics.duration.startTimer({ tool });
  kit.metrics.inFlight.inc();
  let finished = false;
  return (outcome) => {
    if (finished) return;
    finished = true;
    kit.metrics.inFlight.dec();
    kit.metrics.requests.inc({ tool, outcome });
    const seconds = end();
    kit.log.info('tool request', { requestId, tool, outcome, durationS: Math.round(seconds * 1000) / 1000 });
  };
}
