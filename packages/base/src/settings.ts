/**
 * Settings. Every process (each service, the gateway, nginx's renderer, the launcher) reads the
 * environment through one schema of the settings it takes, once, when it starts: a bad value stops it
 * there with a message naming the setting, never a failed request later. Defaults that more than one
 * process needs are written here, once; the catalog holds those the site shows (the upload limit...).
 */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { constants, services, type ServiceName } from '@quire/catalog';

export const defaults = {
  /** nginx's port: the public address. */
  publicPort: 8080,
  gatewayPort: 3100,
  /** Where the gateway and the services listen (`HOST`): this machine only. */
  host: '127.0.0.1',
  /** How long one engine job may run before it is stopped (`JOB_TIMEOUT_MS`). */
  jobTimeoutMs: 120_000,
  /** The longest a queued job may be given, its calls to the services included (`JOBS_MAX_SECONDS`). */
  jobsMaxSeconds: 3600,
  /** Jobs that may wait for an engine, per service (`QUEUE_MAX_WAITING`); beyond that: `429 busy`. */
  queueMaxWaiting: 20,
  /** The Firebase project of local runs and tests: a `demo-` project never reaches Google. */
  firebaseProjectId: 'demo-quire',
} as const;

export type Env = Record<string, string | undefined>;
export type SettingsSchema = z.ZodRawShape;
export type SettingsOf<S extends SettingsSchema> = z.output<z.ZodObject<S>>;

/** An empty variable is no setting, as an unset one: the default applies. */
const unsetWhenEmpty = (value: unknown) => (value === '' ? undefined : value);

const wholeNumberText = z.string().regex(/^\d+$/, { error: (issue) => `must be a whole number, not "${issue.input}"` });

const atLeast = (min: number) =>
  wholeNumberText
    .transform(Number)
    .refine((n) => n >= min, { error: (issue) => `must be at least ${min}, not "${String(issue.input)}"` });

/** The kinds of setting, each turning the variable's text into its value or naming what is wrong. */
export const setting = {
  /** A whole number, at least `min`. */
  wholeNumber(fallback: number, min = 0) {
    return z.preprocess(unsetWhenEmpty, atLeast(min).default(fallback));
  },
  /** A whole number, at least `min`; `undefined` when unset. */
  optionalWholeNumber(min = 0) {
    return z.preprocess(unsetWhenEmpty, atLeast(min).optional());
  },
  port(fallback: number) {
    const value = wholeNumberText.transform(Number).refine((n) => n >= 1 && n <= 65_535, {
      error: (issue) => `must be a port number, not "${String(issue.input)}"`,
    });
    return z.preprocess(unsetWhenEmpty, value.default(fallback));
  },
  text(fallback: string) {
    return z.preprocess(unsetWhenEmpty, z.string().default(fallback));
  },
  /** Free text that must be given. */
  requiredText() {
    return z.preprocess(unsetWhenEmpty, z.string({ error: 'must be set' }));
  },
  /** Free text, `undefined` when unset. */
  optionalText() {
    return z.preprocess(unsetWhenEmpty, z.string().optional());
  },
  /** One of a few words. */
  oneOf<const T extends readonly [string, ...string[]]>(values: T) {
    const value = z.enum(values, {
      error: (issue) => `must be one of ${values.join(', ')}, not "${String(issue.input)}"`,
    });
    return z.preprocess(unsetWhenEmpty, value.optional());
  },
  /** `0` turns it off; anything else, or nothing, leaves it on. */
  onUnlessZero() {
    return z.preprocess(unsetWhenEmpty, z.string().optional()).transform((v) => v !== '0');
  },
  /**
   * An address with one of the given schemes. `description` is what the message says it must be; the
   * value is not repeated, since such addresses may hold a password.
   */
  address(schemes: readonly string[], description: string) {
    const value = z
      .string()
      .refine((v) => URL.canParse(v) && schemes.includes(new URL(v).protocol), { error: `must be ${description}` });
    return z.preprocess(unsetWhenEmpty, value.optional());
  },
};

/**
 * Reads the settings of `schema` from `env`. Throws an error naming every setting that is wrong and why
 * ("Setting JOB_TIMEOUT_MS must be a whole number, not "soon""), so that the process stops at start.
 */
export function readSettings<S extends SettingsSchema>(schema: S, env: Env = process.env): SettingsOf<S> {
  const result = z.object(schema).safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `Setting ${String(issue.path[0])} ${issue.message}`);
  throw new Error(problems.join('\n'));
}

/** The logs' level (winston's npm levels), whose default NODE_ENV sets (`warn` under test, else `info`). */
export const logSettings = {
  LOG_LEVEL: setting.oneOf(['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly']),
  NODE_ENV: setting.optionalText(),
};

/** The limits nginx, the gateway and every service share: they must agree on them. */
export const limitSettings = {
  UPLOAD_LIMIT_MB: setting.wholeNumber(constants.uploadLimitMb, 1),
  JOB_TIMEOUT_MS: setting.wholeNumber(defaults.jobTimeoutMs, 1),
  JOBS_MAX_SECONDS: setting.wholeNumber(defaults.jobsMaxSeconds, 1),
};

/** Tool calls a client may make a minute, counted by nginx and again by each gateway; 0 turns the limit off. */
export const rateLimitSettings = {
  RATE_LIMIT_PER_MINUTE: setting.wholeNumber(constants.rateLimitPerMinute),
};

/** Every service's settings: its address, the shared limits, its queue, its logs and work folders. */
export function serviceSettings(name: ServiceName) {
  return {
    PORT: setting.port(services[name].port),
    HOST: setting.text(defaults.host),
    ...limitSettings,
    QUEUE_CONCURRENCY: setting.wholeNumber(availableParallelism(), 1),
    QUEUE_MAX_WAITING: setting.wholeNumber(defaults.queueMaxWaiting),
    ...logSettings,
    WORK_DIR: setting.optionalText(),
  };
}

export interface ServiceConfig {
  port: number;
  host: string;
  uploadLimitBytes: number;
  jobTimeoutMs: number;
  /** The most time a queued job's call may be given (it asks with `X-Quire-Time-Ms`). */
  maxJobTimeoutMs: number;
  queueConcurrency: number;
  queueMaxWaiting: number;
}

/** A service's settings, read when it starts. */
export function readServiceConfig(name: ServiceName, env: Env = process.env): ServiceConfig {
  const s = readSettings(serviceSettings(name), env);
  return {
    port: s.PORT,
    host: s.HOST,
    uploadLimitBytes: s.UPLOAD_LIMIT_MB * 1024 * 1024,
    jobTimeoutMs: s.JOB_TIMEOUT_MS,
    maxJobTimeoutMs: s.JOBS_MAX_SECONDS * 1000,
    queueConcurrency: s.QUEUE_CONCURRENCY,
    queueMaxWaiting: s.QUEUE_MAX_WAITING,
  };
}

/** Firebase Authentication: read by the gateway, which checks sign-ins, and by nginx, whose CSP lets them in. */
export const signInSettings = {
  FIREBASE_PROJECT_ID: setting.text(defaults.firebaseProjectId),
  FIREBASE_API_KEY: setting.optionalText(),
  FIREBASE_AUTH_DOMAIN: setting.optionalText(),
  FIREBASE_AUTH_EMULATOR_HOST: setting.optionalText(),
};

export interface SignIn {
  projectId: string;
  apiKey: string;
  /** Every Firebase project has `<project>.firebaseapp.com`; a custom domain is set with FIREBASE_AUTH_DOMAIN. */
  authDomain: string;
  /** `host:port` of the Auth emulator (local runs and tests only). */
  emulatorHost: string | null;
}

export function signInOf(s: SettingsOf<typeof signInSettings>): SignIn {
  return {
    projectId: s.FIREBASE_PROJECT_ID,
    apiKey: s.FIREBASE_API_KEY ?? '',
    authDomain: s.FIREBASE_AUTH_DOMAIN ?? `${s.FIREBASE_PROJECT_ID}.firebaseapp.com`,
    emulatorHost: s.FIREBASE_AUTH_EMULATOR_HOST ?? null,
  };
}

/** One whole-number setting, for code that reads a single one; it fails as the schemas do. */
export function envInt(name: string, fallback: number, env: Env = process.env): number {
  return readSettings({ [name]: setting.wholeNumber(fallback) }, env)[name] as number;
}

/** The one upload limit, in bytes, shared by nginx, the gateway and every service. */
export function uploadLimitBytes(env: Env = process.env): number {
  return readSettings({ UPLOAD_LIMIT_MB: limitSettings.UPLOAD_LIMIT_MB }, env).UPLOAD_LIMIT_MB * 1024 * 1024;
}
