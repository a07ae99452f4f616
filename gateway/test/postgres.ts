/**
 * A throwaway PostgreSQL server for tests: a fresh cluster in a temp directory on a free loopback port,
 * from Debian's packages, stopped and removed afterwards; it can be halted and started again, as an
 * outage. As root it runs as the `postgres` user, since PostgreSQL refuses to run as root.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('PostgreSQL is not installed (scripts/setup.sh installs the postgresql package).');
  return join(root, newest, 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Postgres {
  url: string;
  /** Shuts the server down as an outage does, keeping its data. */
  halt(): Promise<void>;
  /** Starts it again after a halt, on the same port and data. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  const dir = await mkdtemp(join(tmpdir(), 'quire-pg-'));
  const asRoot = process.getuid?.() === 0;
  const pgUser = asRoot ? Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()) : undefined;
  if (asRoot) chownSync(dir, pgUser!, Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()));
  const as = (cmd: string, args: string[]) =>
    (asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]) as [string, string[]];

  const data = join(dir, 'data');
  const [initCmd, initArgs] = as(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'quire',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8', timeout: 60_000 });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error}`);

  const port = await freePort();
  const url = `postgres://quire@127.0.0.1:${port}/postgres`;
  let server: ChildProcess | undefined;

  /** Starts the server on the cluster and waits until it takes connections. */
  const launch = async () => {
    const [cmd, args] = as(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
    ]);
    const proc = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    server = proc;
    let log = '';
    proc.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    const deadline = Date.now() + 120_000;
    for (;;) {
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await client.end().catch(() => undefined);
        if (proc.exitCode !== null || Date.now() > deadline) {
          proc.kill('SIGKILL');
          throw new Error(`PostgreSQL did not start: ${log}`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };

  /** Fast shutdown (rolls back open transactions and stops at once); the cluster stays. */
  const halt = async () => {
    const proc = server;
    server = undefined;
    const gone = () => proc?.exitCode !== null || proc.signalCode !== null;
    if (!proc || gone()) return;
    const exited = new Promise((r) => proc.once('exit', r));
    process.kill(-proc.pid!, 'SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (!gone()) process.kill(-proc.pid!, 'SIGKILL');
    // Down means gone: a server started again on the same port and cluster must not meet this one.
    await exited;
  };

  try {
    await launch();
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }

  return {
    url,
    halt,
    start: launch,
    async stop() {
      await halt();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
