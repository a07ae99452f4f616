import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Programs are started by a small helper process forked once (spawner.mjs), not by this process:
 * starting a program forks the process that starts it, at a cost that grows with what that process
 * maps (2 ms from a bare Node, 14 ms from one holding 200 MB, all of it blocking its event loop).
 */

export interface ProgramRequest {
  command: string;
  args: string[];
  cwd: string | undefined;
  env: NodeJS.ProcessEnv;
  /** Bytes of stdout and stderr kept each; the rest is dropped. */
  maxOutput: number;
}

/** How a program ended: its exit and output, or why it could not run. */
export type ProgramEnd =
  { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } | { failure: Error };

export interface StartedProgram {
  /** Kills the program's whole process group. */
  kill(): void;
}

type HelperMessage =
  | { t: 'started'; id: number; pid: number }
  | {
      t: 'done';
      id: number;
      code: number | null;
      signal: NodeJS.Signals | null;
      stdout: Uint8Array;
      stderr: Uint8Array;
    }
  | { t: 'failed'; id: number; message: string };

interface Running {
  pid?: number;
  end: (ended: ProgramEnd) => void;
}

const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The helper and the programs it runs for us; when it stops, they are killed and their callers told. */
class Helper {
  readonly running = new Map<number, Running>();
  readonly child: ChildProcess;

  constructor() {
    // Plain Node without this process's loader: the helper must stay small.
    this.child = fork(fileURLToPath(new URL('./spawner.mjs', import.meta.url)), [], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: HelperMessage) => this.heard(message));
    this.child.on('exit', () => this.stopped(new Error('the program helper stopped')));
    this.child.on('error', (err) => this.stopped(err));
    // Waiting programs keep this process alive by their timers; the helper alone must not.
    this.child.unref();
    this.child.channel?.unref();
  }

  get usable(): boolean {
    return this.child.connected;
  }

  private heard(message: HelperMessage): void {
    const run = this.running.get(message.id);
    if (!run) return;
    if (message.t === 'started') {
      run.pid = message.pid;
      return;
    }
    this.running.delete(message.id);
    if (message.t === 'failed') run.end({ failure: new Error(message.message) });
    else
      run.end({
        code: message.code,
        signal: message.signal,
        stdout: text(message.stdout),
        stderr: text(message.stderr),
      });
  }

  private stopped(err: Error): void {
    if (helper === this) helper = undefined;
    for (const run of this.running.values()) {
      if (run.pid) killGroup(run.pid);
      run.end({ failure: err });
    }
    this.running.clear();
  }
}

let helper: Helper | undefined;
let nextId = 0;

/** Starts a program through the helper (forked on first use, again if it stopped); `end` is called once. */
export function startProgram(request: ProgramRequest, end: (ended: ProgramEnd) => void): StartedProgram {
  if (!helper?.usable) {
    try {
      helper = new Helper();
    } catch (err) {
      queueMicrotask(() => end({ failure: err as Error }));
      return { kill: () => undefined };
    }
  }
  const own = helper;
  const id = ++nextId;
  const run: Running = { end };
  own.running.set(id, run);
  own.child.send({ t: 'run', id, ...request });
  return {
    kill() {
      if (run.pid) killGroup(run.pid);
      // Not started yet as far as we know: the helper kills it once it has.
      else if (own.usable) own.child.send({ t: 'kill', id });
    },
  };
}
