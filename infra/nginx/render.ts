/**
 * nginx's config, rendered from `quire.conf.template` beside this file: by the launcher (`npm start`,
 * scripts/stack.ts) and, bundled into one file, by nginx's container when it starts
 * (infra/docker/nginx-conf.ts). Both read their settings through the schemas here.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { errorCodes, type ErrorCode } from '@quire/catalog';
import { cspHashesFile } from '../../frontend/scripts/postbuild.ts';
// The settings module alone, not the base package's index: this file is bundled for nginx's image.
import {
  defaults,
  limitSettings,
  rateLimitSettings,
  readSettings,
  setting,
  signInOf,
  signInSettings,
  type Env,
} from '@quire/base/settings';

export const templateFile = join(import.meta.dirname, 'quire.conf.template');

export interface NginxSettings {
  runDir: string;
  staticRoot: string;
  listenHost: string;
  port: number;
  /** `host:port` of each gateway. */
  gateways: string[];
  uploadLimitMb: number;
  jobTimeoutMs: number;
  /** Tool calls a client may make a minute (the gateway's RATE_LIMIT_PER_MINUTE); 0: no limit. */
  rateLimitPerMinute: number;
  /** A file, or /dev/stdout in a container (locally node's stdio pipes are sockets, which nginx cannot open). */
  accessLog: string;
  /** The site loads a tag-manager container (TAG_MANAGER_ID), which the CSP must then let in. */
  tagManager?: boolean;
  /** Sign-in, which the CSP must let in: a real Firebase project (its auth domain), or the local Auth emulator. */
  auth?: { authDomain: string } | { emulatorOrigin: string };
}

/** What nginx's config takes from the settings the gateway and the site share, wherever nginx runs. */
export const nginxSettings = {
  ...limitSettings,
  ...rateLimitSettings,
  TAG_MANAGER_ID: setting.optionalText(),
  ...signInSettings,
};

export type SharedNginxSettings = Pick<
  NginxSettings,
  'uploadLimitMb' | 'jobTimeoutMs' | 'rateLimitPerMinute' | 'tagManager' | 'auth'
>;

export function readNginxSettings(env: Env): SharedNginxSettings {
  const s = readSettings(nginxSettings, env);
  const signIn = signInOf(s);
  return {
    uploadLimitMb: s.UPLOAD_LIMIT_MB,
    jobTimeoutMs: s.JOB_TIMEOUT_MS,
    rateLimitPerMinute: s.RATE_LIMIT_PER_MINUTE,
    tagManager: Boolean(s.TAG_MANAGER_ID),
    auth: signIn.emulatorHost
      ? { emulatorOrigin: `http://${signIn.emulatorHost}` }
      : signIn.apiKey
        ? { authDomain: signIn.authDomain }
        : undefined,
  };
}

/** A list of `host:port`, separated by commas or spaces. */
const gatewayList = setting.requiredText().transform((raw, ctx) => {
  const gateways = raw.split(/[\s,]+/).filter(Boolean);
  const bad = gateways.find((g) => !/^(\[[0-9a-fA-F:.]+\]|[\w.-]+):\d{1,5}$/.test(g));
  if (gateways.length === 0 || bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: `must name the gateways as host:port, not "${bad ?? raw}"` });
  }
  return gateways;
});

/** nginx's container: where things are in the image, and the gateways; the rest as everywhere. */
export const containerSettings = {
  ...nginxSettings,
  NGINX_TEMPLATE: setting.requiredText(),
  GATEWAYS: gatewayList,
  LISTEN_HOST: setting.requiredText(),
  PORT: setting.port(defaults.publicPort),
  STATIC_ROOT: setting.requiredText(),
  RUN_DIR: setting.requiredText(),
  ACCESS_LOG: setting.requiredText(),
};

/** The container's nginx.conf, from its environment. */
export async function renderContainerConfig(env: Env): Promise<string> {
  const s = readSettings(containerSettings, env);
  const settings: NginxSettings = {
    ...readNginxSettings(env),
    runDir: s.RUN_DIR,
    staticRoot: s.STATIC_ROOT,
    listenHost: s.LISTEN_HOST,
    port: s.PORT,
    gateways: s.GATEWAYS,
    accessLog: s.ACCESS_LOG,
  };
  return renderNginxConfig(settings, s.NGINX_TEMPLATE);
}

/** Fills the template's `${NAME}` placeholders; a placeholder without a value is an error. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  const missing = new Set<string>();
  const out = template.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (_, name: string) => {
    if (!Object.hasOwn(values, name)) missing.add(name);
    return values[name] ?? '';
  });
  if (missing.size > 0) throw new Error(`The nginx template needs a value for ${[...missing].join(', ')}`);
  return out;
}

/** True when a user other than the owner can reach `path` (every folder above it searchable, it readable). */
export function othersCanReach(path: string): boolean {
  try {
    if (!(statSync(path).mode & 0o004)) return false;
    for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
      if (!(statSync(dir).mode & 0o001)) return false;
      if (dir === dirname(dir)) return true;
    }
  } catch {
    return false;
  }
}

const tagManagerOrigin = 'https://www.googletagmanager.com';

/** What Firebase Authentication needs in each CSP directive, each with a leading space (or empty). */
export function authCsp(auth: NginxSettings['auth']): Record<'script' | 'connect' | 'frame' | 'img', string> {
  if (!auth) return { script: '', connect: '', frame: '', img: '' };
  // The emulator's own Google popup would need Google's scripts all the same: locally only the REST calls.
  if ('emulatorOrigin' in auth) return { script: '', connect: ` ${auth.emulatorOrigin}`, frame: '', img: '' };
  return {
    // The Google popup: Google's script loader and the project's auth domain in a hidden frame.
    script: ' https://apis.google.com',
    connect: ' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com',
    frame: ` https://${auth.authDomain}`,
    // Google accounts' profile photos.
    img: ' https://*.googleusercontent.com',
  };
}

/** What nginx itself refuses, by the statuses it refuses with, answered with the contract's error. */
const refusals: readonly { statuses: readonly number[]; code: ErrorCode }[] = [
  { statuses: [413], code: 'file_too_large' },
  { statuses: [429], code: 'rate_limited' },
  { statuses: [502, 503], code: 'not_available' },
  { statuses: [504], code: 'timeout' },
];

/** The contract's JSON body, as an nginx single-quoted string. */
function errorBody(code: ErrorCode): string {
  const json = JSON.stringify({ error: { code, message: errorCodes[code].message } });
  // nginx would read a `$` as the start of a variable, and has no escape for it.
  if (json.includes('$')) throw new Error(`The message of ${code} cannot go into nginx's config: it holds a $`);
  return `'${json.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** `error_page` lines and their named locations, each answering with the catalog's status and body. */
export function errorPages(indent = '        '): { pages: string; locations: string } {
  const pages = refusals.map(({ statuses, code }) => {
    const { status } = errorCodes[code];
    const answer = statuses.length === 1 && statuses[0] === status ? '' : ` =${status}`;
    return `error_page ${statuses.join(' ')}${answer} @${code};`;
  });
  const locations = refusals.map(({ code }) =>
    [
      `location @${code} {`,
      '    types { }',
      '    default_type application/json;',
      `    return ${errorCodes[code].status} ${errorBody(code)};`,
      '}',
    ].join(`\n${indent}`),
  );
  return { pages: pages.join(`\n${indent}`), locations: locations.join(`\n\n${indent}`) };
}

async function scriptHashes(staticRoot: string): Promise<string> {
  const hashes = await readFile(join(staticRoot, cspHashesFile), 'utf8').catch(() => '');
  const list = hashes.split(/\s+/).filter(Boolean);
  return list.length > 0 ? ` ${list.join(' ')}` : '';
}

/**
 * The rendered nginx.conf. As root (the launcher run by root; never the container), workers run as
 * `nobody` when it can read the site and the run dir.
 */
export async function renderNginxConfig(s: NginxSettings, template = templateFile): Promise<string> {
  let userDirective = '';
  if (process.getuid?.() === 0) {
    userDirective =
      othersCanReach(s.staticRoot) && othersCanReach(s.runDir)
        ? 'user nobody nogroup;'
        : '# The site or the run directory is private to root, so workers run as root.\nuser root;';
  }
  const csp = authCsp(s.auth);
  const errors = errorPages();
  return renderTemplate(await readFile(template, 'utf8'), {
    USER_DIRECTIVE: userDirective,
    RUN_DIR: s.runDir,
    ACCESS_LOG: s.accessLog,
    LISTEN_HOST: s.listenHost.includes(':') && !s.listenHost.startsWith('[') ? `[${s.listenHost}]` : s.listenHost,
    PORT: String(s.port),
    STATIC_ROOT: s.staticRoot,
    GATEWAY_UPSTREAM: s.gateways.map((g) => `server ${g};`).join('\n        '),
    UPLOAD_LIMIT_MB: String(s.uploadLimitMb),
    PROXY_TIMEOUT_S: String(Math.ceil(s.jobTimeoutMs / 1000) + 60),
    // As many tool calls at once as the limit (one, and the rest as a burst), then one more each
    // 60/limit seconds; 0 turns it off.
    RATE_LIMIT_RATE: `${Math.max(1, s.rateLimitPerMinute)}r/m`,
    TOOL_RATE_LIMIT:
      s.rateLimitPerMinute > 0
        ? `limit_req zone=quire_tools burst=${s.rateLimitPerMinute - 1} nodelay;`
        : '# RATE_LIMIT_PER_MINUTE=0: tool calls are not limited.',
    CSP_TAG_MANAGER: s.tagManager ? ` ${tagManagerOrigin}` : '',
    CSP_AUTH_SCRIPT: csp.script,
    CSP_AUTH_CONNECT: csp.connect,
    CSP_AUTH_FRAME: csp.frame,
    CSP_AUTH_IMG: csp.img,
    CSP_SCRIPT_HASHES: await scriptHashes(s.staticRoot),
    ERROR_PAGES: errors.pages,
    ERROR_LOCATIONS: errors.locations,
  });
}
