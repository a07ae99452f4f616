/**
 * The local stack without Docker: nginx in front, the gateway, and every service that exists, each a
 * child process with its own process group, health-checked before the next layer starts, logged to
 * files in the run directory. Used by `npm start` and by the contract tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants, createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { services, type ServiceName } from '@quire/catalog';
import { defaults } from '@quire/base';
import { readNginxSettings, renderNginxConfig, type NginxSettings } from '../infra/nginx/render.ts';
import { demoProjectId, prepareAuthEmulator } from '../gateway/src/auth-emulator.ts';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const defaultPorts = {
  public: defaults.publicPort,
  gateway: defaults.gatewayPort,
  /** The Firebase Auth emulator, and the hub and logging ports its suite takes beside it. */
  authEmulator: 9099,
  emulatorHub: 4400,
  emulatorLogging: 4500,
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

interface Child {
  name: string;
  proc: ChildProcess;
  logFile: string;
  log: WriteStream;
  tail: string[];
  errTail: string[];
  /** Settles when the process has exited. */
  exit: Promise<void>;
  /** Settles when its output has been read to the end as well. */
  closed: Promise<void>;
  exited: boolean;
  exitDescription: string;
}

const tailLines = 25;

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

async function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, host, () => server.close(() => done(true)));
  });
}

function connectHost(listenHost: string): string {
  if (listenHost === '0.0.0.0') return '127.0.0.1';
  if (listenHost === '::') return '[::1]';
  return listenHost.includes(':') ? `[${listenHost}]` : listenHost;
}

function spawnChild(
  name: string,
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; logDir: string; echo: boolean },
): Child {
  const logFile = join(opts.logDir, `${name}.log`);
  const log = createWriteStream(logFile, { flags: 'w' });
  // A process group of its own: stop() reaches the child's children too, and a terminal's Ctrl-C
  // reaches only the launcher, which then stops everything in order.
  const proc = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const child: Child = {
    name,
    proc,
    logFile,
    log,
    tail: [],
    errTail: [],
    exited: false,
    exitDescription: '',
    exit: Promise.resolve(),
    closed: Promise.resolve(),
  };
  log.on('error', () => {}); // a full disk must not bring the launcher down
  const prefix = `${name.padEnd(11)} | `;
  const follow = (stream: NodeJS.ReadableStream | null, isErr: boolean) => {
    if (!stream) return;
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      if (!log.writableEnded) log.write(`${line}\n`);
      for (const tail of isErr ? [child.tail, child.errTail] : [child.tail]) {
        tail.push(line);
        if (tail.length > tailLines) tail.shift();
      }
      if (opts.echo) (isErr ? process.stderr : process.stdout).write(`${prefix}${line}\n`);
    });
  };
  follow(proc.stdout, false);
  follow(proc.stderr, true);
  child.exit = new Promise<void>((done) => {
    proc.once('error', (err) => {
      child.exited = true;
      child.exitDescription = `could not be started (${err.message})`;
      done();
    });
    proc.once('exit', (code, signal) => {
      child.exited = true;
      child.exitDescription = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      done();
    });
  });
  child.closed = new Promise<void>((done) => {
    proc.once('close', () => done());
    proc.once('error', () => done());
  });
  return child;
}

function killGroup(child: Child, signal: NodeJS.Signals): void {
  if (child.proc.pid === undefined) return;
  try {
    process.kill(-child.proc.pid, signal);
  } catch {
    // the group is gone already
  }
}

function lastLines(child: Child): string {
  const lines = child.errTail.length > 0 ? child.errTail : child.tail;
  if (lines.length === 0) return `(it printed nothing; log: ${child.logFile})`;
  return `Last lines (${child.logFile}):\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

async function waitHealthy(child: Child, url: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    if (signal?.aborted) throw new Error(`cancelled while ${child.name} was starting.`);
    if (child.exited) {
      throw new Error(`${child.name} ${child.exitDescription} before it was healthy.\n${lastLines(child)}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) {
        await res.body?.cancel();
        return;
      }
      last = `${res.status} ${(await res.text()).slice(0, 200)}`;
    } catch (err) {
      last = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${child.name} was not healthy at ${url} within ${Math.round(timeoutMs / 1000)} s (last answer: ${last}).\n${lastLines(child)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function stopChild(child: Child, graceMs: number): Promise<void> {
  if (!child.exited) {
    killGroup(child, 'SIGTERM');
    const timer = new Promise<'late'>((r) => setTimeout(() => r('late'), graceMs).unref());
    if ((await Promise.race([child.exit.then(() => 'done' as const), timer])) === 'late') {
      killGroup(child, 'SIGKILL');
      await child.exit;
    }
  }
  // Whatever the child left behind in its group (engines it started) goes with it.
  killGroup(child, 'SIGKILL');
  await Promise.race([child.closed, new Promise((r) => setTimeout(r, 2000).unref())]);
  await new Promise<void>((r) => child.log.end(r));
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const root = resolve(opts.root ?? repoRoot);
  const runDir = resolve(opts.runDir ?? join(root, '.run'));
  const logDir = join(runDir, 'logs');
  const nginxDir = join(runDir, 'nginx');
  const dataDir = resolve(opts.dataDir ?? join(runDir, 'data'));
  const workDir = resolve(opts.workDir ?? join(runDir, 'work'));
  const staticRoot = resolve(opts.staticRoot ?? join(root, 'frontend', 'dist'));
  const offset = opts.portOffset ?? 0;
  const listenHost = opts.listenHost ?? defaults.host;
  const publicPort = opts.port ?? defaultPorts.public + offset;
  const gatewayPort = opts.gatewayPort ?? defaultPorts.gateway + offset;
  const baseEnv = { ...process.env, ...opts.env };
  // nginx's settings are the gateway's and the services' too: a bad one stops the stack before it starts.
  const shared = readNginxSettings(baseEnv);
  const uploadLimitMb = opts.uploadLimitMb ?? shared.uploadLimitMb;
  const gatewayEntry = resolve(opts.gatewayEntry ?? join(root, 'gateway', 'src', 'main.ts'));
  const serviceEntry = (name: ServiceName) => join(root, 'services', name, 'src', 'main.ts');
  const serviceNames =
    opts.services ?? (Object.keys(services) as ServiceName[]).filter((name) => existsSync(serviceEntry(name)));
  const authEmulator = opts.authEmulator ?? (!baseEnv.FIREBASE_API_KEY && baseEnv.NODE_ENV !== 'production');
  const emulatorPorts = {
    auth: defaultPorts.authEmulator + offset,
    hub: defaultPorts.emulatorHub + offset,
    logging: defaultPorts.emulatorLogging + offset,
  };

  if (!existsSync(gatewayEntry)) throw new Error(`The gateway's entry ${gatewayEntry} does not exist.`);
  for (const name of serviceNames) {
    if (!existsSync(serviceEntry(name))) throw new Error(`Service ${name} has no ${serviceEntry(name)}.`);
  }
  if (!existsSync(join(staticRoot, 'index.html'))) {
    throw new Error(`The site is not built (${staticRoot}/index.html is missing): run \`npm run build\`.`);
  }
  const nginx = findNginx(baseEnv);

  const servicePorts = Object.fromEntries(
    serviceNames.map((name) => [name, opts.servicePorts?.[name] ?? services[name].port + offset]),
  ) as Record<ServiceName, number>;
  /** Each instance's name (for its log) and port: `pdf-editor`, then `pdf-editor-2` 100 ports up... */
  const instancesOf = (what: Replicated, port: number) =>
    Array.from({ length: opts.replicas?.[what] ?? 1 }, (_, k) => ({
      name: k ? `${what}-${k + 1}` : what,
      port: port + 100 * k,
    }));
  const wanted: [string, string, number][] = [
    ['nginx', listenHost, publicPort],
    ...[...instancesOf('gateway', gatewayPort), ...serviceNames.flatMap((n) => instancesOf(n, servicePorts[n]))].map(
      (i): [string, string, number] => [i.name, '127.0.0.1', i.port],
    ),
    ...(authEmulator
      ? Object.entries(emulatorPorts).map(([what, port]): [string, string, number] => [
          `the Auth emulator's ${what}`,
          '127.0.0.1',
          port,
        ])
      : []),
  ];
  for (const [what, host, port] of wanted) {
    if (!(await portIsFree(host, port))) {
      throw new Error(
        `Port ${port} on ${host} (for ${what}) is already in use: is another Quire stack running? Stop it, or choose other ports (PORT, or a port offset).`,
      );
    }
  }

  await mkdir(logDir, { recursive: true });
  await mkdir(nginxDir, { recursive: true, mode: 0o755 });
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await mkdir(workDir, { recursive: true, mode: 0o700 });

  const children: Child[][] = [];
  let stopping = false;
  let reportCrash: (message: string) => void = () => {};
  const crashed = new Promise<string>((r) => (reportCrash = r));
  const all = () => children.flat();
  const killAllNow = () => all().forEach((c) => killGroup(c, 'SIGKILL'));
  process.on('exit', killAllNow);

  const launch = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv, cwd = root): Child => {
    const child = spawnChild(name, command, args, { cwd, env, logDir, echo: opts.echo ?? false });
    void child.exit.then(() => {
      if (!stopping) reportCrash(`${child.name} ${child.exitDescription}.\n${lastLines(child)}`);
    });
    return child;
  };

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      stopping = true;
      for (const layer of [...children].reverse()) {
        await Promise.all(layer.map((c) => stopChild(c, opts.stopGraceMs ?? 8000)));
      }
      process.off('exit', killAllNow);
    })();
    return stopped;
  };

  const healthTimeoutMs = opts.healthTimeoutMs ?? 120_000;
  const node = (entry: string) => ['--import', 'tsx', entry];
  const common = (port: number, name: string) => ({
    ...baseEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    UPLOAD_LIMIT_MB: String(uploadLimitMb),
    WORK_DIR: join(workDir, name),
  });

  try {
    const serviceUrls: Partial<Record<ServiceName, string>> = {};
    // Sign-in without a Firebase project: the Auth emulator, started beside the services. Its accounts
    // are kept in the data directory from one run to the next.
    const emulator = authEmulator
      ? await prepareAuthEmulator({
          dir: join(runDir, 'auth-emulator'),
          ports: emulatorPorts,
          projectId: demoProjectId,
          env: baseEnv,
        })
      : undefined;
    const accounts = join(dataDir, 'auth-emulator');
    const authSettings: Record<string, string> = emulator
      ? { FIREBASE_AUTH_EMULATOR_HOST: emulator.host, FIREBASE_PROJECT_ID: demoProjectId }
      : {};

    const instances: Stack['instances'] = {};
    const start = (what: Replicated, { name, port }: { name: string; port: number }, entry: string, env: object) => {
      const child = launch(name, process.execPath, node(entry), { ...common(port, name), ...env });
      (instances[what] ??= []).push({ url: `http://127.0.0.1:${port}`, pid: child.proc.pid!, exited: child.exit });
      return child;
    };
    const layer = serviceNames.flatMap((name) =>
      instancesOf(name, servicePorts[name]).map((i) => start(name, i, serviceEntry(name), {})),
    );
    const healthUrls = serviceNames.flatMap((name) => instances[name]!.map((i) => `${i.url}/health`));
    for (const name of serviceNames) serviceUrls[name] = instances[name]![0]!.url;
    if (emulator) {
      const keep = ['--export-on-exit', accounts];
      if (existsSync(join(accounts, 'firebase-export-metadata.json'))) keep.push('--import', accounts);
      layer.push(launch('auth', emulator.command, [...emulator.args, ...keep], emulator.env, emulator.cwd));
      healthUrls.push(`${emulator.url}/`);
    }
    children.push(layer);
    await Promise.all(layer.map((c, i) => waitHealthy(c, healthUrls[i]!, healthTimeoutMs, opts.signal)));

    // Every instance of a service, comma-separated: the gateway shares the calls among them.
    const serviceSettings = Object.fromEntries(
      serviceNames.map((name) => [services[name].urlSetting, instances[name]!.map((i) => i.url).join(',')]),
    );
    const gateways = instancesOf('gateway', gatewayPort).map((i) =>
      start('gateway', i, gatewayEntry, { DATA_DIR: dataDir, ...serviceSettings, ...authSettings }),
    );
    children.push(gateways);
    const gatewayUrls = instances.gateway!.map((i) => i.url);
    await Promise.all(
      gateways.map((g, i) => waitHealthy(g, `${gatewayUrls[i]}/healthz`, healthTimeoutMs, opts.signal)),
    );
    const gatewayUrl = gatewayUrls[0]!;

    const conf = join(nginxDir, 'nginx.conf');
    const nginxSettings: NginxSettings = {
      ...shared,
      ...(emulator && { auth: { emulatorOrigin: emulator.url } }),
      runDir: nginxDir,
      staticRoot,
      listenHost,
      port: publicPort,
      gateways: gatewayUrls.map((u) => new URL(u).host),
      uploadLimitMb,
      accessLog: join(logDir, 'nginx-access.log'),
    };
    await writeFile(conf, await renderNginxConfig(nginxSettings, join(root, 'infra', 'nginx', 'quire.conf.template')));
    const url = `http://${connectHost(listenHost)}:${publicPort}`;
    const proxy = launch('nginx', nginx, ['-p', nginxDir, '-c', conf, '-e', 'stderr', '-g', 'daemon off;'], baseEnv);
    children.push([proxy]);
    await waitHealthy(proxy, `${url}/`, healthTimeoutMs, opts.signal);

    return { url, gatewayUrl, serviceUrls, instances, runDir, logDir, crashed, stop };
  } catch (err) {
    await stop();
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`The stack did not start: ${message}`, { cause: err });
  }
}
