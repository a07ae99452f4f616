import { availableParallelism } from 'node:os';

/** How many engine processes one job may run side by side. */
export function parallelism(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * Runs `work` on each item, at most `limit` at once; results in the items' order. After a failure no
 * new item starts, and the failure waits for the work under way, so nothing writes for a request that
 * has already been answered.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        results[i] = await work(items[i]!, i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}
