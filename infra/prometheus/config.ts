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
  /**
   * Each target is a DNS name to resolve at every refresh, scraping every address it has: in compose
   * a service scaled to several containers has one name for all of them.
   */
  dns?: boolean;
}

export function prometheusConfig(targets: ScrapeTargets, opts: ConfigOptions): string {
  const list = (items: string[]) => `[${items.map((i) => `'${i}'`).join(', ')}]`;
  const jobs = Object.entries(targets).map(([job, instances]) =>
    [
      `  - job_name: ${job}`,
      `    metrics_path: ${metricsPath}`,
      ...(opts.dns
        ? [
            `    dns_sd_configs:`,
            ...instances.flatMap((i) => {
              const [name, port] = i.split(':');
              return [`      - names: ${list([name!])}`, `        type: A`, `        port: ${port}`];
            }),
          ]
        : [`    static_configs:`, `      - targets: ${list(instances)}`]),
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

/** The committed config: compose targets found by DNS, a 15 s scrape, the alerts beside it. */
export function composeConfig(): string {
  return prometheusConfig(composeTargets(), { scrapeInterval: '15s', ruleFiles: ['alerts.yml'], dns: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('prometheus.yml', import.meta.url), composeConfig());
}
