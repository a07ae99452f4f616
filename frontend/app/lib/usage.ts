import { tools } from './tools.ts';
import { useFetchedOnce } from './fetched.ts';

export type Usage = Record<string, number>;

/** The catalog's seed counts: what prerendered pages show until the live counts arrive. */
export const seedUsage: Usage = Object.fromEntries(tools.map((t) => [t.id, t.usage]));

/** Live usage counts from `/track_usage.php`, fetched once per visit. */
export function useUsage(): Usage {
  return useFetchedOnce('/track_usage.php', seedUsage, (body) => ({
    ...seedUsage,
    ...((body as { stats?: Usage }).stats ?? {}),
  }));
}
