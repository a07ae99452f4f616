/**
 * docker-compose.yml and the images of infra/docker, checked without a Docker engine: docker-compose
 * validates and resolves the file, and what it resolves is held against the catalog, the settings' schemas
 * and defaults in the code, and the Dockerfiles. nginx's container renders its config with the renderer
 * the local launcher uses, bundled as its image bundles it; the real nginx must accept what it writes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { constants, services, type ServiceName } from '@quire/catalog';
import { defaults, serviceSettings } from '@quire/base';
import { cspHashesFile } from '../../frontend/scripts/postbuild.ts';
import { gatewaySettings } from '../../gateway/src/config.ts';
import { containerSettings, renderNginxConfig, type NginxSettings } from '../../infra/nginx/render.ts';
import { findNginx, repoRoot } from '../../scripts/stack.ts';
import { imageSettings } from '../../services/image/src/config.ts';
import { officeSettings } from '../../services/office/src/settings.ts';
import { rendererSettings } from '../../services/renderer/src/settings.ts';

interface ComposeService {
  build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string | number | null> };
  environment?: Record<string, string | number | null>;
  ports?: string[];
  profiles?: string[];
  healthcheck?: { test?: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  command?: string[];
  networks?: Record<string, { aliases?: string[] } | null>;
}
type ComposeServices = Record<string, ComposeService>;

const serviceNames = Object.keys(services) as ServiceName[];
const devEnvFile = join(repoRoot, 'infra', 'docker', 'dev.env');
const template = join(repoRoot, 'infra', 'nginx', 'quire.conf.template');
/** The settings each service reads besides the shared ones (serviceSettings), by their schemas. */
const ownSettings: Record<ServiceName, object> = {
  'pdf-editor': {},
  office: officeSettings,
  renderer: rendererSettings,
  image: imageSettings,
  'pdf-extract': {},
};
/** Settings a deployment would set, to see them reach the containers. */
const someSettings = {
  PORT: '9000',
  LISTEN_HOST: '0.0.0.0',
  UPLOAD_LIMIT_MB: '50',
  JOB_TIMEOUT_MS: '90500',
  POSTGRES_PASSWORD: 's3cret',
  TAG_MANAGER_ID: 'GTM-ABC123',
  FIREBASE_API_KEY: 'web-key',
  FIREBASE_PROJECT_ID: 'acme-pdf',
  LOG_LEVEL: 'debug',
};

let scratch: string;
let noSettings: string;
let withSettings: string;

/** Runs docker-compose on the repository's file with only the given env file's settings. */
function compose(envFile: string, ...args: string[]): string {
  const r = spawnSync('docker-compose', ['--env-file', envFile, ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  if (r.status !== 0) throw new Error(`docker-compose ${args.join(' ')}: ${r.stderr || r.error?.message}`);
  return r.stdout;
}

const resolvedFiles = new Map<string, ComposeServices>();

/** The services as docker-compose resolves them with the env file's settings. */
function resolved(envFile: string): ComposeServices {
  if (!resolvedFiles.has(envFile)) {
    resolvedFiles.set(envFile, (parse(compose(envFile, 'config')) as { services: ComposeServices }).services);
  }
  return structuredClone(resolvedFiles.get(envFile)!);
}

/** A service's environment as the container gets it: a name without a value is not set at all. */
function envOf(service: ComposeService | undefined): Record<string, string> {
  const entries = Object.entries(service?.environment ?? {}).filter(([, v]) => v !== null);
  return Object.fromEntries(entries.map(([k, v]) => [k, String(v)]));
}

/** The instructions of one stage of a Dockerfile (the named target, else the last), continuations joined. */
function dockerStage(dockerfile: string, target?: string): string[] {
  const lines = readFileSync(join(repoRoot, dockerfile), 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: string[][] = [];
  for (const line of lines) {
    if (/^FROM\s/i.test(line)) stages.push([]);
    stages.at(-1)?.push(line);
  }
  const stage = target ? stages.find((s) => new RegExp(`\\sAS\\s+${target}$`, 'i').test(s[0]!)) : stages.at(-1);
  if (!stage) throw new Error(`${dockerfile} has no stage ${target ?? ''}`);
  return stage;
}

function instruction(stage: string[], name: string): string[] {
  return stage.filter((l) => l.toUpperCase().startsWith(`${name} `)).map((l) => l.slice(name.length + 1).trim());
}

/** The variables a stage sets with ENV (`ENV A=1 B=2`). */
function stageEnv(stage: string[]): Record<string, string> {
  const pairs = instruction(stage, 'ENV').flatMap((l) => [...l.matchAll(/([A-Z_][A-Z0-9_]*)=(\S*)/g)]);
  return Object.fromEntries(pairs.map((m) => [m[1]!, m[2]!]));
}

function imageStage(service: ComposeService): string[] {
  return dockerStage(service.build!.dockerfile, service.build!.target);
}

/** The shared packages every service runs (the gateway runs them but the service kit). */
const servicePackages = ['base', 'detect', 'pdf', 'http', 'service-kit'].map((name) => `packages/${name}/src`);

function tsFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

/** Every environment variable the files read outside a schema, by `env.NAME`, `env['NAME']` or `envInt('NAME'`. */
function settingsRead(files: string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    const source = readFileSync(join(repoRoot, file), 'utf8');
    for (const m of source.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]*)|envInt\('([A-Z][A-Z0-9_]*)'/g)) {
      names.add((m[1] ?? m[2])!);
    }
  }
  return names;
}

/** Paths inside the containers, right by default there (Debian's programs, temporary and data folders). */
const containerPaths = [
  'CHROMIUM_PATH',
  'SOFFICE_PATH',
  'OFFICE_PYTHON',
  'OFFICE_PROFILE_DIR',
  'WORK_DIR',
  'RESULTS_DIR',
  'JOBS_DIR',
];
/** Read from the environment, but not settings: what is passed on to, or kept from, engines. */
const notSettings = ['PATH', 'PYTHONHOME', 'PYTHONPATH'];

/**
 * The settings of a schema that neither compose nor the image gives, and the variables the files read
 * that are in no schema (and so would be neither checked at start nor given).
 */
function missingSettings(service: ComposeService, schema: object, files: string[]): string[] {
  const given = new Set([...Object.keys(service.environment ?? {}), ...Object.keys(stageEnv(imageStage(service)))]);
  const known = new Set([...Object.keys(schema), ...containerPaths, ...notSettings]);
  const unknown = [...settingsRead(files)].filter((name) => !known.has(name)).map((name) => `${name} (no schema)`);
  const notGiven = Object.keys(schema).filter((name) => !containerPaths.includes(name) && !given.has(name));
  return [...notGiven, ...unknown];
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'quire-compose-'));
  noSettings = join(scratch, 'none.env');
  withSettings = join(scratch, 'settings.env');
  await writeFile(noSettings, '');
  await writeFile(
    withSettings,
    Object.entries(someSettings).map(([k, v]) => `${k}=${v}\n`),
  );
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('docker-compose.yml', () => {
  it('is valid as it is, with some settings, and for local development', () => {
    for (const envFile of [noSettings, withSettings, devEnvFile]) expect(compose(envFile, 'config', '-q')).toBe('');
    expect(compose(noSettings, 'config', '--profiles').split('\n').filter(Boolean).sort()).toEqual([
      'dev',
      'gotenberg',
      'monitoring',
    ]);
  });

  it('runs every service of the catalog, built in infra/docker, on its port, with a health check', () => {
    const all = resolved(noSettings);
    for (const name of serviceNames) {
      const service = all[name];
      expect(service?.build?.context, name).toBe(repoRoot);
      expect(service?.build?.dockerfile, name).toMatch(/^infra\/docker\/[\w.-]+\.Dockerfile$/);
      expect(service?.build?.args, name).toEqual({ SERVICE: name, PORT: `${services[name].port}` });
      expect(instruction(imageStage(service!), 'HEALTHCHECK').at(-1), name).toMatch(/\/health"$/);
      expect(service?.healthcheck, name).toBeDefined();
      expect(service?.profiles, name).toBeUndefined();
    }
  });

  it('publishes nginx alone by default, and the profiles only to this machine', () => {
    const publishing = (all: ComposeServices) =>
      Object.entries(all)
        .filter(([, s]) => s.ports?.length && !s.profiles)
        .map(([name, s]) => [name, s.ports]);
    expect(publishing(resolved(noSettings))).toEqual([['nginx', ['127.0.0.1:8080:8080/tcp']]]);
    expect(publishing(resolved(withSettings))).toEqual([['nginx', ['0.0.0.0:9000:8080/tcp']]]);
    const profilePorts = Object.values(resolved(withSettings)).flatMap((s) => (s.profiles ? (s.ports ?? []) : []));
    expect(profilePorts.length).toBeGreaterThan(0);
    for (const port of profilePorts) expect(port).toMatch(/^127\.0\.0\.1:/);
  });

  it('builds every image from a Dockerfile there, run by a user other than root under tini, health-checked', () => {
    const built = Object.entries(resolved(noSettings)).filter(([, s]) => s.build);
    expect(built.map(([name]) => name).sort()).toEqual(['auth-emulator', 'gateway', 'nginx', ...serviceNames].sort());
    for (const [name, service] of built) {
      expect(existsSync(join(repoRoot, service.build!.dockerfile)), name).toBe(true);
      const stage = imageStage(service);
      const users = instruction(stage, 'USER');
      expect(users.length, name).toBeGreaterThan(0);
      expect(users.at(-1), name).not.toMatch(/^(root|0)(:|$)/);
      expect(instruction(stage, 'ENTRYPOINT').at(-1), name).toMatch(/^\["tini", "--"/);
      const check = instruction(stage, 'HEALTHCHECK').at(-1) ?? service.healthcheck?.test?.join(' ');
      expect(check, name).toMatch(/http:\/\/127\.0\.0\.1:/);
    }
  });

  it('gives the gateway every setting of its schema', () => {
    const gateway = resolved(noSettings).gateway!;
    const files = [...tsFiles('gateway/src'), 'packages/base/src/settings.ts', 'packages/base/src/log.ts'];
    expect(Object.keys(gatewaySettings)).toContain('DATABASE_URL');
    expect(missingSettings(gateway, gatewaySettings, files)).toEqual([]);
    for (const { urlSetting } of Object.values(services)) expect(Object.keys(envOf(gateway))).toContain(urlSetting);
  });

  it("gives every service every setting of its schema and the shared packages'", () => {
    const all = resolved(noSettings);
    for (const name of serviceNames) {
      const files = [...tsFiles(`services/${name}/src`), ...servicePackages.flatMap(tsFiles)];
      const schema = { ...serviceSettings(name), ...ownSettings[name] };
      expect(missingSettings(all[name]!, schema, files), name).toEqual([]);
    }
  });

  it('passes settings on, and leaves unset ones unset', () => {
    const plain = resolved(noSettings);
    const set = resolved(withSettings);
    expect(envOf(plain.gateway)).not.toHaveProperty('LOG_LEVEL');
    expect(envOf(plain.gateway)).not.toHaveProperty('FIREBASE_API_KEY');
    for (const name of ['gateway', ...serviceNames]) expect(envOf(set[name]).LOG_LEVEL, name).toBe('debug');
    expect(envOf(set.gateway)).toMatchObject({ FIREBASE_API_KEY: 'web-key', FIREBASE_PROJECT_ID: 'acme-pdf' });
    expect(envOf(set.nginx)).toMatchObject({ FIREBASE_API_KEY: 'web-key', TAG_MANAGER_ID: 'GTM-ABC123' });
    expect(set.nginx?.build?.args).toEqual({ SITE_URL: '', TAG_MANAGER_ID: 'GTM-ABC123' });
    expect(set.gateway?.build?.args).toEqual(set.nginx?.build?.args);
  });

  it('gives nginx, the gateway and every service one upload limit and one job limit', () => {
    const limits = (all: ComposeServices) =>
      ['nginx', 'gateway', ...serviceNames].map((name) => {
        const env = envOf(all[name]);
        return [env.UPLOAD_LIMIT_MB, env.JOB_TIMEOUT_MS];
      });
    // Unset, each takes the one default in the code.
    for (const limit of limits(resolved(noSettings))) expect(limit).toEqual([undefined, undefined]);
    for (const limit of limits(resolved(withSettings))) expect(limit).toEqual(['50', '90500']);
  });

  it("puts the gateway and nginx on the ports in the code, each service on the catalog's", () => {
    const all = resolved(noSettings);
    expect(stageEnv(imageStage(all.gateway!)).PORT).toBe(`${defaults.gatewayPort}`);
    expect(instruction(imageStage(all.gateway!), 'EXPOSE')).toEqual([`${defaults.gatewayPort}`]);
    expect(instruction(imageStage(all.nginx!), 'EXPOSE')).toEqual([`${defaults.publicPort}`]);
    expect(envOf(all.gateway)).not.toHaveProperty('PORT');
    expect(envOf(all.nginx).GATEWAYS).toBe(`gateway:${defaults.gatewayPort}`);
    expect(stageEnv(imageStage(all.nginx!)).PORT).toBe(`${defaults.publicPort}`);
    expect(all.nginx?.ports).toEqual([`127.0.0.1:${defaults.publicPort}:${defaults.publicPort}/tcp`]);
    for (const name of serviceNames) {
      expect(all[name]?.build?.args?.PORT, name).toBe(`${services[name].port}`);
      expect(envOf(all.gateway)[services[name].urlSetting], name).toBe(`http://${name}:${services[name].port}`);
    }
  });

  it('connects the gateway to the services, PostgreSQL and Redis by their names, once they are healthy', () => {
    for (const envFile of [noSettings, withSettings]) {
      const all = resolved(envFile);
      const gateway = envOf(all.gateway);
      for (const name of serviceNames) {
        expect(gateway[services[name].urlSetting]).toBe(`http://${name}:${services[name].port}`);
      }
      const db = new URL(gateway.DATABASE_URL!);
      const postgres = envOf(all[db.hostname]);
      expect([db.port, db.username, db.password, db.pathname]).toEqual([
        '5432',
        postgres.POSTGRES_USER,
        postgres.POSTGRES_PASSWORD,
        `/${postgres.POSTGRES_DB}`,
      ]);
      expect(new URL(gateway.REDIS_URL!).hostname).toBe('redis');
      expect(all.redis?.healthcheck?.test).toContain('redis-cli');
      const needs = Object.entries(all.gateway!.depends_on ?? {});
      expect(needs.map(([name]) => name).sort()).toEqual([db.hostname, 'redis', ...serviceNames].sort());
      for (const [, need] of needs) expect(need.condition).toBe('service_healthy');
      expect(all.nginx?.depends_on).toEqual({ gateway: { condition: 'service_healthy' } });
    }
    expect(envOf(resolved(withSettings).gateway).DATABASE_URL).toContain(':s3cret@');
  });

  it('keeps the site data, the monitoring data and the emulator accounts in volumes', () => {
    const all = resolved(noSettings);
    const mounts = (name: string) => all[name]?.volumes ?? [];
    expect(mounts('postgres')).toContain('postgres-data:/var/lib/postgresql/data:rw');
    expect(mounts('gateway')).toContain(`gateway-data:${envOf(all.gateway).DATA_DIR}:rw`);
    expect(mounts('auth-emulator')).toContain('auth-emulator-data:/data:rw');
    expect(mounts('prometheus')).toContain(`${repoRoot}/infra/prometheus:/etc/prometheus:ro`);
    expect(all.prometheus?.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
    expect(existsSync(join(repoRoot, 'infra', 'prometheus', 'prometheus.yml'))).toBe(true);
    expect(mounts('grafana')).toContain(`${repoRoot}/infra/grafana:/etc/grafana/provisioning:ro`);
    expect(statSync(join(repoRoot, 'infra', 'grafana', 'datasources')).isDirectory()).toBe(true);
  });

  it('for development, points the gateway and the CSP at the Auth emulator by a name the browser resolves too', () => {
    expect(readFileSync(devEnvFile, 'utf8')).toMatch(/^COMPOSE_PROFILES=(.*,)?dev(,|$)/m);
    const all = resolved(devEnvFile);
    const emulator = all['auth-emulator']!;
    const address = envOf(all.gateway).FIREBASE_AUTH_EMULATOR_HOST!;
    const [host, port] = address.split(':');
    expect(host).toMatch(/\.localhost$/);
    expect(emulator.networks?.default?.aliases).toContain(host);
    expect(emulator.ports).toContain(`127.0.0.1:${port}:${port}/tcp`);
    expect(envOf(all.nginx).FIREBASE_AUTH_EMULATOR_HOST).toBe(address);
    // The gateway refuses the emulator in production.
    expect(envOf(all.gateway).NODE_ENV).not.toBe('production');
    expect(envOf(resolved(noSettings).gateway).NODE_ENV).toBe('production');
  });
});

describe("nginx's container", () => {
  let siteDir: string;
  const hashes = "'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' 'sha256-BBBB+/BBBB='";

  beforeAll(async () => {
    siteDir = join(scratch, 'site');
    await mkdir(siteDir);
    await writeFile(join(siteDir, cspHashesFile), `${hashes}\n`);
  });

  /** Its environment: the image's, then compose's, with the site at siteDir. */
  function nginxEnv(envFile: string, overrides: Record<string, string> = {}): Record<string, string> {
    const nginx = resolved(envFile).nginx!;
    return {
      ...stageEnv(imageStage(nginx)),
      ...envOf(nginx),
      NGINX_TEMPLATE: template,
      STATIC_ROOT: siteDir,
      ...overrides,
    };
  }

  let bundle: string;

  /** The image's own step: the renderer bundled into one file, which node runs with nothing beside it. */
  beforeAll(() => {
    const site = dockerStage('infra/docker/gateway.Dockerfile', 'site');
    const step = instruction(site, 'RUN').find((l) => l.includes('esbuild'));
    const out = /--outfile=(\S+)/.exec(step ?? '')?.[1];
    expect(instruction(imageStage(resolved(noSettings).nginx!), 'COPY')).toContain(
      `--from=site ${out} /usr/local/lib/quire/nginx-conf.mjs`,
    );
    bundle = join(scratch, 'bundle', 'nginx-conf.mjs');
    const r = spawnSync('sh', ['-c', step!.replace(`--outfile=${out}`, `--outfile=${bundle}`)], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
  });

  it('runs the bundled renderer when it starts', () => {
    const cmd = instruction(imageStage(resolved(noSettings).nginx!), 'CMD').at(-1);
    expect(cmd).toContain('node /usr/local/lib/quire/nginx-conf.mjs > ');
  });

  function render(env: Record<string, string>) {
    const r = spawnSync(process.execPath, [bundle], {
      // Away from the repository: the bundle must need no node_modules.
      cwd: scratch,
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
      timeout: 30_000,
      killSignal: 'SIGKILL',
    });
    return { status: r.status, conf: r.stdout, stderr: r.stderr };
  }

  /** From the first directive on: the launcher adds a `user` line when it runs as root, the container never. */
  const directives = (conf: string) => conf.slice(conf.indexOf('\nworker_processes'));

  type Expected = Pick<NginxSettings, 'tagManager' | 'auth' | 'uploadLimitMb' | 'jobTimeoutMs'>;
  const unset = { uploadLimitMb: constants.uploadLimitMb, jobTimeoutMs: defaults.jobTimeoutMs };
  const cases: [string, () => string, Expected][] = [
    ['without settings', () => noSettings, { ...unset, tagManager: false }],
    [
      'with a tag manager and a Firebase project',
      () => withSettings,
      { uploadLimitMb: 50, jobTimeoutMs: 90_500, tagManager: true, auth: { authDomain: 'acme-pdf.firebaseapp.com' } },
    ],
    [
      'for development',
      () => devEnvFile,
      { ...unset, tagManager: false, auth: { emulatorOrigin: 'http://auth-emulator.localhost:9099' } },
    ],
  ];

  it.each(cases)('renders the launcher’s nginx.conf %s', async (_, envFile, expected) => {
    const env = nginxEnv(envFile());
    const { status, conf, stderr } = render(env);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const launcher = await renderNginxConfig(
      {
        runDir: env.RUN_DIR!,
        staticRoot: siteDir,
        listenHost: env.LISTEN_HOST!,
        port: Number(env.PORT),
        gateways: [`gateway:${defaults.gatewayPort}`],
        rateLimitPerMinute: constants.rateLimitPerMinute,
        accessLog: env.ACCESS_LOG!,
        ...expected,
      },
      template,
    );
    expect(directives(conf)).toBe(directives(launcher));
    expect(conf).toContain(hashes);
    expect(conf).toContain(`listen ${env.LISTEN_HOST}:${env.PORT};`);
  });

  it('refuses to start without a setting it needs, or with a bad one, naming it', () => {
    const env = nginxEnv(noSettings);
    delete env.ACCESS_LOG;
    const missing = render(env);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toBe('nginx-conf: Setting ACCESS_LOG must be set\n');
    const bad = render(nginxEnv(noSettings, { UPLOAD_LIMIT_MB: '100m' }));
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toBe('nginx-conf: Setting UPLOAD_LIMIT_MB must be a whole number, not "100m"\n');
  });

  it('is given every setting it needs by its image and compose', () => {
    const nginx = resolved(noSettings).nginx!;
    const given = new Set([...Object.keys(envOf(nginx)), ...Object.keys(stageEnv(imageStage(nginx)))]);
    // The settings without a default: those its schema refuses when they are unset.
    const needed = Object.entries(containerSettings)
      .filter(([, schema]) => !schema.safeParse(undefined).success)
      .map(([name]) => name);
    expect(needed).toContain('GATEWAYS');
    expect(needed.filter((name) => !given.has(name))).toEqual([]);
  });

  it('renders a config the real nginx accepts', async () => {
    const runDir = join(scratch, 'nginx');
    await mkdir(runDir);
    // Compose's names do not resolve outside its network, and nginx cannot open a socket as /dev/stdout
    // (the test's output; the container's is a pipe).
    const { conf } = render(
      nginxEnv(withSettings, {
        RUN_DIR: runDir,
        GATEWAYS: `127.0.0.1:${defaults.gatewayPort}`,
        ACCESS_LOG: join(runDir, 'access.log'),
      }),
    );
    await writeFile(join(runDir, 'nginx.conf'), conf);
    const r = spawnSync(findNginx(), ['-t', '-p', runDir, '-c', join(runDir, 'nginx.conf'), '-e', 'stderr'], {
      encoding: 'utf8',
      timeout: 30_000,
      killSignal: 'SIGKILL',
    });
    expect(r.stderr).toContain('test is successful');
    expect(r.status).toBe(0);
  });
});

describe('the images', () => {
  /** The Debian package of each program the code runs by name. */
  const programPackages: Record<string, string> = {
    qpdf: 'qpdf',
    gs: 'ghostscript',
    mutool: 'mupdf-tools',
    pdftoppm: 'poppler-utils',
    pdftotext: 'poppler-utils',
    pdfinfo: 'poppler-utils',
    pdfimages: 'poppler-utils',
    pdftocairo: 'poppler-utils',
    soffice: 'libreoffice-writer',
    chromium: 'chromium',
  };

  /** What infra/docker/service.Dockerfile installs for one service: the common packages and its case. */
  function packagesOf(service: ServiceName): string[] {
    const text = readFileSync(join(repoRoot, 'infra', 'docker', 'service.Dockerfile'), 'utf8');
    const fonts = /fonts="([^"]*)"/.exec(text.replace(/\\\n/g, ' '))?.[1] ?? '';
    const arm = [...text.matchAll(/^\s*([a-z][a-z| -]*)\) engines="([^"]*)"/gm)].find((m) =>
      m[1]!.split('|').some((s) => s.trim() === service),
    );
    const common = /apt-get install -y --no-install-recommends ([^;]*)\$engines/.exec(text)?.[1] ?? '';
    return `${common} ${arm?.[2] ?? ''}`.replace('$fonts', fonts).split(/\s+/).filter(Boolean);
  }

  it('installs the engines of every program each service and the shared packages run', () => {
    for (const name of serviceNames) {
      const installed = packagesOf(name);
      expect(installed, name).toContain('tini');
      const files = [...tsFiles(`services/${name}/src`), ...servicePackages.flatMap(tsFiles)];
      const source = files.map((f) => readFileSync(join(repoRoot, f), 'utf8')).join('\n');
      const programs = Object.keys(programPackages).filter((p) => source.includes(`'${p}'`));
      expect(programs, name).toContain('qpdf');
      for (const program of programs) expect(installed, `${name} runs ${program}`).toContain(programPackages[program]);
    }
  });

  it('leaves installed, built and run files out of the build context', () => {
    const ignored = readFileSync(join(repoRoot, '.dockerignore'), 'utf8').split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '.run', '.git']) expect(ignored).toContain(pattern);
  });
});
