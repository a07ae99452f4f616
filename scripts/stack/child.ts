import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** One process of the stack, its output logged to a file and its last lines kept for errors. */
export interface Child {
  name: string;
  proc: ChildProcess;
  logFile: string;
  log: WriteStream;
  tail: string[];
  errTail: string[];
  /** Settles when the process has exited. */
  exit: Promise<void>;
  /** Settles when its output has been read to the end as well. */
  closed: Promise<void>;
  exited: boolean;
  exitDescription: string;
}

const tailLines = 25;

export function spawnChild(
  name: string,
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; logDir: string; echo: boolean },
): Child {
  const logFile = join(opts.logDir, `${name}.log`);
  const log = createWriteStream(logFile, { flags: 'w' });
  // A process group of its own: stop() reaches the child's children too, and a terminal's Ctrl-C
  // reaches only the launcher, which then stops everything in order.
  const proc = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const child: Child = {
    name,
    proc,
    logFile,
    log,
    tail: [],
    errTail: [],
    exited: false,
    exitDescription: '',
    exit: Promise.resolve(),
    closed: Promise.resolve(),
  };
  log.on('error', () => {}); // a full disk must not bring the launcher down
  const prefix = `${name.padEnd(11)} | `;
  const follow = (stream: NodeJS.ReadableStream | null, isErr: boolean) => {
    if (!stream) return;
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      if (!log.writableEnded) log.write(`${line}\n`);
      for (const tail of isErr ? [child.tail, child.errTail] : [child.tail]) {
        tail.push(line);
        if (tail.length > tailLines) tail.shift();
      }
      if (opts.echo) (isErr ? process.stderr : process.stdout).write(`${prefix}${line}\n`);
    });
  };
  follow(proc.stdout, false);
  follow(proc.stderr, true);
  child.exit = new Promise<void>((done) => {
    proc.once('error', (err) => {
      child.exited = true;
      child.exitDescription = `could not be started (${err.message})`;
      done();
    });
    proc.once('exit', (code, signal) => {
      child.exited = true;
      child.exitDescription = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      done();
    });
  });
  child.closed = new Promise<void>((done) => {
    proc.once('close', () => done());
    proc.once('error', () => done());
  });
  return child;
}

export function killGroup(child: Child, signal: NodeJS.Signals): void {
  if (child.proc.pid === undefined) return;
  try {
    process.kill(-child.proc.pid, signal);
  } catch {
    // the group is gone already
  }
}

/** What the child printed last (its errors if it printed any), for a message about it. */
export function lastLines(child: Child): string {
  const lines = child.errTail.length > 0 ? child.errTail : child.tail;
  if (lines.length === 0) return `(it printed nothing; log: ${child.logFile})`;
  return `Last lines (${child.logFile}):\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/** SIGTERM to the child's group, SIGKILL after `graceMs`; then its log is closed. */
export async function stopChild(child: Child, graceMs: number): Promise<void> {
  if (!child.exited) {
    killGroup(child, 'SIGTERM');
    const timer = new Promise<'late'>((r) => setTimeout(() => r('late'), graceMs).unref());
    if ((await Promise.race([child.exit.then(() => 'done' as const), timer])) === 'late') {
      killGroup(child, 'SIGKILL');
      await child.exit;
    }
  }
  // Whatever the child left behind in its group (engines it started) goes with it.
  killGroup(child, 'SIGKILL');
  await Promise.race([child.closed, new Promise((r) => setTimeout(r, 2000).unref())]);
  await new Promise<void>((r) => child.log.end(r));
}
