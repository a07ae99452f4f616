import { tools } from './tools.ts';
import { useEffect, useState } from 'react';

export type Usage = Record<string, number>;

/** The catalog's seed counts: what prerendered pages show until the live counts arrive. */
export const seedUsage: Usage = Object.fromEntries(tools.map((t) => [t.id, t.usage]));

let live: Promise<Usage> | undefined;

/** Live usage counts from `/track_usage.php`, fetched once per visit. */
export function useUsage(): Usage {
  const [usage, setUsage] = useState(seedUsage);
  useEffect(() => {
    live ??= fetch('/track_usage.php')
      .then((r) => (r.ok ? r.json() : { stats: {} }))
      .then((b: { stats?: Usage }) => ({ ...seedUsage, ...(b.stats ?? {}) }))
      .catch(() => seedUsage);
    let current = true;
    void live.then((u) => current && setUsage(u));
    return () => {
      current = false;
    };
  }, []);
  return usage;
}
