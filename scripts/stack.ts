/**
 * The local stack without Docker: nginx in front, the gateway, and every service that exists, each a
 * child process with its own process group, health-checked before the next layer starts, logged to
 * files in the run directory. Used by `npm start` and by the contract tests.
 */
import { accessSync, constants as fsConstants, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { services, type ServiceName } from '@quire/catalog';
import { defaults, serverArgs } from '@quire/base';
import {
  readNginxSettings,
  renderNginxConfig,
  type NginxSettings,
  type SharedNginxSettings,
} from '../infra/nginx/render.ts';
import {
  demoProjectId,
  prepareAuthEmulator,
  type AuthEmulatorCommand,
  type AuthEmulatorPorts,
} from '../gateway/src/auth-emulator.ts';
import type { Child } from './stack/child.ts';
import { waitHealthy, waitRedis } from './stack/health.ts';
import { Layers } from './stack/layers.ts';
import { checkPortsFree, connectHost, instancesAt, type InstanceAt, type PortUse } from './stack/ports.ts';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const defaultPorts = {
  public: defaults.publicPort,
  gateway: defaults.gatewayPort,
  /** The Firebase Auth emulator, and the hub and logging ports its suite takes beside it. */
  authEmulator: 9099,
  emulatorHub: 4400,
  emulatorLogging: 4500,
  /** The Redis server the stack starts for the job queue, when none is given (REDIS_URL, QUEUE_REDIS_URL). */
  redis: 6380,
} as const;

export interface StackOptions {
  /** The repository to run; default: the one this file belongs to. */
  root?: string;
  /** Rendered config, logs, pid and temporary files; default `<root>/.run`. */
  runDir?: string;
  /** Added to every default port (nginx's, the gateway's, the catalog's service ports), to run beside another stack. */
  portOffset?: number;
  /** The public port (nginx); default `defaultPorts.public` + offset. */
  port?: number;
  /** The address nginx listens on; default 127.0.0.1. */
  listenHost?: string;
  gatewayPort?: number;
  servicePorts?: Partial<Record<ServiceName, number>>;
  /** Which services to start; default every one whose `services/<name>/src/main.ts` exists. */
  services?: ServiceName[];
  /**
   * How many instances of the gateway and of each service to run; default one. Instance k (from 0)
   * listens on its port + 100·k; the gateway is given every instance of a service, nginx every gateway.
   */
  replicas?: Partial<Record<Replicated, number>>;
  /** The gateway's entry file; default `<root>/gateway/src/main.ts`. */
  gatewayEntry?: string;
  uploadLimitMb?: number;
  /** The gateway's database and results; default `<runDir>/data`. */
  dataDir?: string;
  /** Per-request work directories of the gateway and services; default `<runDir>/work`. */
  workDir?: string;
  /** The built site; default `<root>/frontend/dist`. */
  staticRoot?: string;
  /**
   * Runs the Firebase Auth emulator (project demo-quire) for sign-in; default: when no real Firebase
   * project is configured (FIREBASE_API_KEY) outside production.
   */
  authEmulator?: boolean;
  /**
   * Runs a Redis server (redis-server, kept in the data directory) for the job queue; default: when the
   * environment names none (REDIS_URL, QUEUE_REDIS_URL).
   */
  redis?: boolean;
  /** Settings for every child (RESULT_TTL_SECONDS, LOG_LEVEL...), over the launcher's environment. */
  env?: Record<string, string | undefined>;
  /** How long each process may take to become healthy; default 120 s. */
  healthTimeoutMs?: number;
  /** Between SIGTERM and SIGKILL on stop; default 8 s. */
  stopGraceMs?: number;
  /** Also print every child's output to the console, prefixed with its name. */
  echo?: boolean;
  /** Aborting it while the stack starts stops what was started and rejects. */
  signal?: AbortSignal;
}

export interface Stack {
  /** The public address, through nginx. */
  url: string;
  gatewayUrl: string;
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** Every instance of the gateway and of each service, in order: to stop one on purpose. */
  instances: Partial<Record<Replicated, Instance[]>>;
  runDir: string;
  logDir: string;
  /** Settles when a child exits while the stack is meant to be running, naming it. */
  crashed: Promise<string>;
  /** Stops every child (SIGTERM to its process group, SIGKILL after the grace period). Idempotent. */
  stop(): Promise<void>;
}

export type Replicated = 'gateway' | ServiceName;

export interface Instance {
  url: string;
  /** Its process group's id too: `process.kill(-pid, signal)` reaches what it started. */
  pid: number;
  /** Settles when it has exited. */
  exited: Promise<void>;
}

/** The nginx program: on PATH, else where Debian puts it (/usr/sbin is not on a normal user's PATH). */
export function findNginx(env: NodeJS.ProcessEnv = process.env): string {
  const dirs = [...(env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, 'nginx');
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error('nginx is not installed: run `bash scripts/setup.sh`');
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const plan = planStack(opts);
  await checkPortsFree(portUses(plan));
  await makeDirs(plan);
  const layers = new Layers({
    cwd: plan.root,
    logDir: plan.logDir,
    echo: opts.echo ?? false,
    stopGraceMs: opts.stopGraceMs ?? 8000,
  });
  const stop = () => layers.stop();
  try {
    // Sign-in without a Firebase project: the Auth emulator, started beside the services.
    const emulator = plan.authEmulator
      ? await prepareAuthEmulator({
          dir: join(plan.runDir, 'auth-emulator'),
          ports: plan.emulatorPorts,
          projectId: demoProjectId,
          env: plan.baseEnv,
        })
      : undefined;
    const run: Run = { plan, layers, instances: {} };
    await startRedis(run);
    const serviceUrls = await startServices(run, emulator);
    const gatewayUrls = await startGateways(run, emulator);
    const url = await startNginx(run, gatewayUrls, emulator);
    const { runDir, logDir } = plan;
    return {
      url,
      gatewayUrl: gatewayUrls[0]!,
      serviceUrls,
      instances: run.instances,
      runDir,
      logDir,
      crashed: layers.crashed,
      stop,
    };
  } catch (err) {
    await stop();
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`The stack did not start: ${message}`, { cause: err });
  }
}

/** Where the stack's files go, what runs on which port and with which settings: the options resolved. */
interface Plan {
  root: string;
  runDir: string;
  logDir: string;
  nginxDir: string;
  dataDir: string;
  workDir: string;
  staticRoot: string;
  listenHost: string;
  publicPort: number;
  gatewayPort: number;
  servicePorts: Record<ServiceName, number>;
  emulatorPorts: AuthEmulatorPorts;
  /** The port of the Redis server the stack runs for the job queue; none when it runs none. */
  redisPort: number | undefined;
  baseEnv: NodeJS.ProcessEnv;
  /** nginx's settings that the gateway and the services read too. */
  shared: SharedNginxSettings;
  uploadLimitMb: number;
  gatewayEntry: string;
  serviceNames: ServiceName[];
  authEmulator: boolean;
  replicas: Partial<Record<Replicated, number>>;
  nginx: string;
  healthTimeoutMs: number;
  signal: AbortSignal | undefined;
}

/** The options resolved against the defaults; fails on a bad setting or a missing program or file. */
function planStack(opts: StackOptions): Plan {
  const root = resolve(opts.root ?? repoRoot);
  const runDir = resolve(opts.runDir ?? join(root, '.run'));
  const staticRoot = resolve(opts.staticRoot ?? join(root, 'frontend', 'dist'));
  const offset = opts.portOffset ?? 0;
  const baseEnv = { ...process.env, ...opts.env };
  // nginx's settings are the gateway's and the services' too: a bad one stops the stack before it starts.
  const shared = readNginxSettings(baseEnv);
  const gatewayEntry = resolve(opts.gatewayEntry ?? join(root, 'gateway', 'src', 'main.ts'));
  const serviceNames =
    opts.services ?? (Object.keys(services) as ServiceName[]).filter((name) => existsSync(serviceEntry(root, name)));

  if (!existsSync(gatewayEntry)) throw new Error(`The gateway's entry ${gatewayEntry} does not exist.`);
  for (const name of serviceNames) {
    if (!existsSync(serviceEntry(root, name))) throw new Error(`Service ${name} has no ${serviceEntry(root, name)}.`);
  }
  if (!existsSync(join(staticRoot, 'index.html'))) {
    throw new Error(`The site is not built (${staticRoot}/index.html is missing): run \`npm run build\`.`);
  }

  return {
    root,
    runDir,
    logDir: join(runDir, 'logs'),
    nginxDir: join(runDir, 'nginx'),
    dataDir: resolve(opts.dataDir ?? join(runDir, 'data')),
    workDir: resolve(opts.workDir ?? join(runDir, 'work')),
    staticRoot,
    listenHost: opts.listenHost ?? defaults.host,
    publicPort: opts.port ?? defaultPorts.public + offset,
    gatewayPort: opts.gatewayPort ?? defaultPorts.gateway + offset,
    servicePorts: Object.fromEntries(
      serviceNames.map((name) => [name, opts.servicePorts?.[name] ?? services[name].port + offset]),
    ) as Record<ServiceName, number>,
    emulatorPorts: {
      auth: defaultPorts.authEmulator + offset,
      hub: defaultPorts.emulatorHub + offset,
      logging: defaultPorts.emulatorLogging + offset,
    },
    redisPort:
      (opts.redis ?? !(baseEnv.REDIS_URL || baseEnv.QUEUE_REDIS_URL)) ? defaultPorts.redis + offset : undefined,
    baseEnv,
    shared,
    uploadLimitMb: opts.uploadLimitMb ?? shared.uploadLimitMb,
    gatewayEntry,
    serviceNames,
    authEmulator: opts.authEmulator ?? (!baseEnv.FIREBASE_API_KEY && baseEnv.NODE_ENV !== 'production'),
    replicas: opts.replicas ?? {},
    nginx: findNginx(baseEnv),
    healthTimeoutMs: opts.healthTimeoutMs ?? 120_000,
    signal: opts.signal,
  };
}

function serviceEntry(root: string, name: ServiceName): string {
  return join(root, 'services', name, 'src', 'main.ts');
}

/** Each instance of the gateway or a service: instance k (from 0) on its port + 100·k. */
function instancesOf(plan: Plan, what: Replicated, port: number): InstanceAt[] {
  return instancesAt(what, port, plan.replicas[what] ?? 1);
}

/** Every port the stack will listen on: checked before anything starts. */
function portUses(plan: Plan): PortUse[] {
  const instances = [
    ...instancesOf(plan, 'gateway', plan.gatewayPort),
    ...plan.serviceNames.flatMap((name) => instancesOf(plan, name, plan.servicePorts[name])),
  ];
  return [
    { what: 'nginx', host: plan.listenHost, port: plan.publicPort },
    ...(plan.redisPort ? [{ what: 'redis-server', host: '127.0.0.1', port: plan.redisPort }] : []),
    ...instances.map((i) => ({ what: i.name, host: '127.0.0.1', port: i.port })),
    ...(plan.authEmulator
      ? Object.entries(plan.emulatorPorts).map(([what, port]) => ({
          what: `the Auth emulator's ${what}`,
          host: '127.0.0.1',
          port,
        }))
      : []),
  ];
}

async function makeDirs(plan: Plan): Promise<void> {
  await mkdir(plan.logDir, { recursive: true });
  await mkdir(plan.nginxDir, { recursive: true, mode: 0o755 });
  await mkdir(plan.dataDir, { recursive: true, mode: 0o700 });
  await mkdir(plan.workDir, { recursive: true, mode: 0o700 });
}

/** A start under way: what it follows, its processes, and the instances started so far. */
interface Run {
  plan: Plan;
  layers: Layers;
  instances: Stack['instances'];
}

/** One instance of the gateway or a service, a Node process, recorded among the stack's instances. */
function startInstance(run: Run, what: Replicated, { name, port }: InstanceAt, entry: string, env: object): Child {
  const { plan } = run;
  const child = run.layers.launch(name, process.execPath, serverArgs(entry), {
    ...plan.baseEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    UPLOAD_LIMIT_MB: String(plan.uploadLimitMb),
    WORK_DIR: join(plan.workDir, name),
    ...env,
  });
  (run.instances[what] ??= []).push({ url: `http://127.0.0.1:${port}`, pid: child.proc.pid!, exited: child.exit });
  return child;
}

/** Waits until each child of a layer answers at its health address. */
async function waitLayer(plan: Plan, layer: Child[], healthUrls: string[]): Promise<void> {
  await Promise.all(layer.map((c, i) => waitHealthy(c, healthUrls[i]!, plan.healthTimeoutMs, plan.signal)));
}

/**
 * Before everything, when the stack runs its own: the job queue's Redis, its data kept in the data
 * directory (append-only), so that queued jobs outlast a restart of the gateways, or of the stack.
 */
async function startRedis(run: Run): Promise<void> {
  const { plan } = run;
  if (!plan.redisPort) return;
  const dir = join(plan.dataDir, 'redis');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const args = ['--port', String(plan.redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes'];
  // Its own log in its own format, beside its data: the stack's log folder holds JSON lines only.
  const log = ['--logfile', join(dir, 'redis-server.log')];
  const redis = run.layers.launch('redis', 'redis-server', [...args, ...log, '--dir', dir], plan.baseEnv);
  run.layers.add([redis]);
  await waitRedis(redis, plan.redisPort, plan.healthTimeoutMs, plan.signal);
}

/** The first layer: every instance of every service, and the Auth emulator; returns each service's first address. */
async function startServices(
  run: Run,
  emulator: AuthEmulatorCommand | undefined,
): Promise<Partial<Record<ServiceName, string>>> {
  const { plan, instances } = run;
  const layer = plan.serviceNames.flatMap((name) =>
    instancesOf(plan, name, plan.servicePorts[name]).map((i) =>
      startInstance(run, name, i, serviceEntry(plan.root, name), {}),
    ),
  );
  const healthUrls = plan.serviceNames.flatMap((name) => instances[name]!.map((i) => `${i.url}/health`));
  const serviceUrls: Partial<Record<ServiceName, string>> = {};
  for (const name of plan.serviceNames) serviceUrls[name] = instances[name]![0]!.url;
  if (emulator) {
    // Its accounts are kept in the data directory from one run to the next.
    const accounts = join(plan.dataDir, 'auth-emulator');
    const keep = ['--export-on-exit', accounts];
    if (existsSync(join(accounts, 'firebase-export-metadata.json'))) keep.push('--import', accounts);
    layer.push(run.layers.launch('auth', emulator.command, [...emulator.args, ...keep], emulator.env, emulator.cwd));
    healthUrls.push(`${emulator.url}/`);
  }
  run.layers.add(layer);
  await waitLayer(plan, layer, healthUrls);
  return serviceUrls;
}

/** The second layer: the gateway's instances, given every service instance; returns their addresses. */
async function startGateways(run: Run, emulator: AuthEmulatorCommand | undefined): Promise<string[]> {
  const { plan, instances } = run;
  // Every instance of a service, comma-separated: the gateway shares the calls among them.
  const serviceSettings = Object.fromEntries(
    plan.serviceNames.map((name) => [services[name].urlSetting, instances[name]!.map((i) => i.url).join(',')]),
  );
  const authSettings: Record<string, string> = emulator
    ? { FIREBASE_AUTH_EMULATOR_HOST: emulator.host, FIREBASE_PROJECT_ID: demoProjectId }
    : {};
  const gateways = instancesOf(plan, 'gateway', plan.gatewayPort).map((i) =>
    startInstance(run, 'gateway', i, plan.gatewayEntry, {
      DATA_DIR: plan.dataDir,
      ...(plan.redisPort && { QUEUE_REDIS_URL: `redis://127.0.0.1:${plan.redisPort}` }),
      ...serviceSettings,
      ...authSettings,
    }),
  );
  run.layers.add(gateways);
  const gatewayUrls = instances.gateway!.map((i) => i.url);
  await waitLayer(
    plan,
    gateways,
    gatewayUrls.map((u) => `${u}/healthz`),
  );
  return gatewayUrls;
}

/** The last layer: nginx in front of the gateways, its config rendered first; returns the public address. */
async function startNginx(run: Run, gatewayUrls: string[], emulator: AuthEmulatorCommand | undefined): Promise<string> {
  const { plan } = run;
  const conf = join(plan.nginxDir, 'nginx.conf');
  const settings: NginxSettings = {
    ...plan.shared,
    ...(emulator && { auth: { emulatorOrigin: emulator.url } }),
    runDir: plan.nginxDir,
    staticRoot: plan.staticRoot,
    listenHost: plan.listenHost,
    port: plan.publicPort,
    gateways: gatewayUrls.map((u) => new URL(u).host),
    uploadLimitMb: plan.uploadLimitMb,
    accessLog: join(plan.logDir, 'nginx-access.log'),
  };
  await writeFile(conf, await renderNginxConfig(settings, join(plan.root, 'infra', 'nginx', 'quire.conf.template')));
  const url = `http://${connectHost(plan.listenHost)}:${plan.publicPort}`;
  const args = ['-p', plan.nginxDir, '-c', conf, '-e', 'stderr', '-g', 'daemon off;'];
  const proxy = run.layers.launch('nginx', plan.nginx, args, plan.baseEnv);
  run.layers.add([proxy]);
  await waitHealthy(proxy, `${url}/`, plan.healthTimeoutMs, plan.signal);
  return url;
}
