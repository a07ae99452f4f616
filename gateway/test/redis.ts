/**
 * A throwaway Redis server for tests: Debian's redis-server on a free loopback port, working in a temp
 * directory and persisting nothing. It can be stopped and started again on the same port, as an outage.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './firebase-emulator.ts';

export interface RedisServer {
  url: string;
  /** Kills the server (SIGKILL): whatever it held is gone. */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-redis-'));
  const port = await freePort();
  let server: ChildProcess | undefined;

  const start = async () => {
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    server = proc;
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail('did not start within 60 s'), 60_000);
      const fail = (why: string) => {
        clearTimeout(timer);
        proc.kill('SIGKILL');
        reject(new Error(`redis-server ${why}: ${log.slice(-2000)}`));
      };
      const read = (d: Buffer) => {
        log += d.toString();
        if (log.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout!.on('data', read);
      proc.stderr!.on('data', read);
      proc.once('error', (err) => fail(`could not be started (${err.message})`));
      proc.once('exit', (code) => fail(`exited with code ${code}`));
    });
  };

  const stop = async () => {
    const proc = server;
    server = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    process.kill(-proc.pid!, 'SIGKILL');
    // Down means gone: a test that goes on before that could still reach it.
    await exited;
  };

  try {
    await start();
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
