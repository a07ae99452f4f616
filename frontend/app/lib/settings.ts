import { constants } from '@quire/catalog/site';
import { useFetchedOnce } from './fetched.ts';

/** The limits the server enforces, as its copy states them. */
export interface SiteSettings {
  uploadLimitMb: number;
  resultTtlSeconds: number;
}

/** The catalog's defaults: what prerendered pages say until the server's own settings arrive. */
const defaults: SiteSettings = { uploadLimitMb: constants.uploadLimitMb, resultTtlSeconds: constants.resultTtlSeconds };

/** The server's settings from `/api/v1/settings`, fetched once per visit. */
export function useSiteSettings(): SiteSettings & { resultMinutes: number } {
  const settings = useFetchedOnce('/api/v1/settings', defaults, (body) => ({
    ...defaults,
    ...(body as Partial<SiteSettings>),
  }));
  return { ...settings, resultMinutes: Math.round(settings.resultTtlSeconds / 60) };
}
