import { constants } from '@quire/catalog/site';
import { useEffect, useState } from 'react';

/** The limits the server enforces, as its copy states them. */
export interface SiteSettings {
  uploadLimitMb: number;
  resultTtlSeconds: number;
}

/** The catalog's defaults: what prerendered pages say until the server's own settings arrive. */
const defaults: SiteSettings = { uploadLimitMb: constants.uploadLimitMb, resultTtlSeconds: constants.resultTtlSeconds };

let live: Promise<SiteSettings> | undefined;

/** The server's settings from `/api/v1/settings`, fetched once per visit. */
export function useSiteSettings(): SiteSettings & { resultMinutes: number } {
  const [settings, setSettings] = useState(defaults);
  useEffect(() => {
    live ??= fetch('/api/v1/settings')
      .then((r) => (r.ok ? (r.json() as Promise<Partial<SiteSettings>>) : {}))
      .then((s) => ({ ...defaults, ...s }))
      .catch(() => defaults);
    let current = true;
    void live.then((s) => current && setSettings(s));
    return () => {
      current = false;
    };
  }, []);
  return { ...settings, resultMinutes: Math.round(settings.resultTtlSeconds / 60) };
}
