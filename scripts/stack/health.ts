import { connect } from 'node:net';
import { lastLines, type Child } from './child.ts';

/** One look at whether a process is ready: true, or what it answered instead. */
type Probe = () => Promise<true | string>;

/**
 * Polls `probe` until it says ready. Fails, naming the child and with its last lines, when the child
 * exits first, when `timeoutMs` passes (with the last answer), or when `signal` aborts.
 */
async function waitReady(
  child: Child,
  where: string,
  probe: Probe,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    if (signal?.aborted) throw new Error(`cancelled while ${child.name} was starting.`);
    if (child.exited) {
      throw new Error(`${child.name} ${child.exitDescription} before it was healthy.\n${lastLines(child)}`);
    }
    const answer = await probe();
    if (answer === true) return;
    last = answer;
    if (Date.now() > deadline) {
      throw new Error(
        `${child.name} was not healthy at ${where} within ${Math.round(timeoutMs / 1000)} s (last answer: ${last}).\n${lastLines(child)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Polls `url` until it answers 2xx (see waitReady). */
export function waitHealthy(child: Child, url: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const probe: Probe = async () => {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) {
        await res.body?.cancel();
        return true;
      }
      return `${res.status} ${(await res.text()).slice(0, 200)}`;
    } catch (err) {
      return err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    }
  };
  return waitReady(child, url, probe, timeoutMs, signal);
}

/** Polls a Redis server until it answers PING (see waitReady). */
export function waitRedis(child: Child, port: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const probe: Probe = () =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let said = '';
      const done = (answer: true | string) => {
        socket.destroy();
        resolve(answer);
      };
      socket.setTimeout(2000, () => done('no answer'));
      socket.on('connect', () => socket.write('PING\r\n'));
      socket.on('data', (d: Buffer) => {
        said += d.toString();
        if (said.includes('\r\n')) done(said.startsWith('+PONG') ? true : said.trim());
      });
      socket.on('error', (err) => done(err.message));
    });
  return waitReady(child, `127.0.0.1:${port}`, probe, timeoutMs, signal);
}
