import { constants } from '@quire/catalog';

/** Reads a whole number from the environment, refusing a value that is not one, so a typo fails at boot. */
export function envInt(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`Setting ${name} must be a whole number, not "${raw}"`);
  return value;
}

/** The one upload limit, in bytes, shared by nginx, the gateway and every service. */
export function uploadLimitBytes(env: NodeJS.ProcessEnv = process.env): number {
  return envInt('UPLOAD_LIMIT_MB', constants.uploadLimitMb, env) * 1024 * 1024;
}
