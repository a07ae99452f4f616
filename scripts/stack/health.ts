import { lastLines, type Child } from './child.ts';

/**
 * Polls `url` until it answers 2xx. Fails, naming the child and with its last lines, when the child
 * exits first, when `timeoutMs` passes (with the last answer), or when `signal` aborts.
 */
export async function waitHealthy(child: Child, url: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    if (signal?.aborted) throw new Error(`cancelled while ${child.name} was starting.`);
    if (child.exited) {
      throw new Error(`${child.name} ${child.exitDescription} before it was healthy.\n${lastLines(child)}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) {
        await res.body?.cancel();
        return;
      }
      last = `${res.status} ${(await res.text()).slice(0, 200)}`;
    } catch (err) {
      last = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${child.name} was not healthy at ${url} within ${Math.round(timeoutMs / 1000)} s (last answer: ${last}).\n${lastLines(child)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}
