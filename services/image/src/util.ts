/**
 * Makes items' results up to `limit` ahead and hands them to `consume` strictly in order. On failure
 * it waits for the work still under way (so no file is written after the caller cleans up) and
 * passes every result that was made but not consumed to `discard`.
 */
export async function inOrder<T, R>(
  items: readonly T[],
  limit: number,
  make: (item: T, index: number) => Promise<R>,
  consume: (result: R, item: T, index: number) => Promise<void>,
  discard: (result: R) => Promise<void>,
): Promise<void> {
  const window: Promise<R>[] = [];
  let next = 0;
  const launch = () => {
    while (window.length < limit && next < items.length) {
      const i = next++;
      const p = make(items[i]!, i);
      p.catch(() => undefined); // awaited below, in order; this only keeps a later failure from being unhandled
      window.push(p);
    }
  };
  let consumed = 0;
  try {
    launch();
    while (window.length > 0) {
      const result = await window.shift()!;
      await consume(result, items[consumed]!, consumed);
      consumed++;
      launch();
    }
  } catch (err) {
    const rest = await Promise.allSettled(window);
    await Promise.all(rest.map((r) => (r.status === 'fulfilled' ? discard(r.value) : undefined)));
    throw err;
  }
}
