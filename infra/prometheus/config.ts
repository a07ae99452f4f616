/**
 * Prometheus's config for Quire, built from the catalog so that no service is left unwatched: one
 * scrape job for the gateway and one for each service, all at `/metrics`. `prometheus.yml` beside this
 * file is the config for docker compose, whose targets are the compose services' names; the ops tests
 * render the same config for a local stack. After a change to the catalog or to this file, rewrite it:
 *
 *   node --import tsx infra/prometheus/config.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { services, type ServiceName } from '@quire/catalog';
import { defaultPorts } from '../../scripts/stack.ts';

/** `host:port` of each instance to scrape, by job: `gateway` and the catalog's service names. */
export type ScrapeTargets = Record<'gateway' | ServiceName, string[]>;

export const metricsPath = '/metrics';

/** The compose network's names: each container is reached by its service's name on its usual port. */
export function composeTargets(): ScrapeTargets {
  const targets = { gateway: [`gateway:${defaultPorts.gateway}`] } as ScrapeTargets;
  for (const [name, { port }] of Object.entries(services)) targets[name as ServiceName] = [`${name}:${port}`];
  return targets;
}

export interface ConfigOptions {
  scrapeInterval: string;
  /** Rule files, relative to the config file or absolute. */
  ruleFiles: string[];
}

export function prometheusConfig(targets: ScrapeTargets, opts: ConfigOptions): string {
  const jobs = Object.entries(targets).map(([job, instances]) =>
    [
      `  - job_name: ${job}`,
      `    metrics_path: ${metricsPath}`,
      `    static_configs:`,
      `      - targets: [${instances.map((i) => `'${i}'`).join(', ')}]`,
    ].join('\n'),
  );
  return [
    '# Written by infra/prometheus/config.ts from the catalog; rewrite it rather than edit it.',
    'global:',
    `  scrape_interval: ${opts.scrapeInterval}`,
    `  evaluation_interval: ${opts.scrapeInterval}`,
    'rule_files:',
    ...opts.ruleFiles.map((f) => `  - ${f}`),
    'scrape_configs:',
    ...jobs,
    '',
  ].join('\n');
}

/** The committed config: compose targets, a 15 s scrape, the alerts beside it. */
export function composeConfig(): string {
  return prometheusConfig(composeTargets(), { scrapeInterval: '15s', ruleFiles: ['alerts.yml'] });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('prometheus.yml', import.meta.url), composeConfig());
}
