import client from 'prom-client';

/** One registry per app, so in-process tests do not share counters. Labels are bounded: tool ids and codes. */
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
    queueSize: new client.Gauge({
      name: 'quire_queue_size',
      help: 'Jobs waiting for an engine',
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
