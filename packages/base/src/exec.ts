import { spawn } from 'node:child_process';
import { ToolError } from './errors.ts';

export interface ExecOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Bytes of stdout and stderr kept each; the rest is dropped. */
  maxOutput?: number;
}

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program in its own process group and kills the whole group on timeout or abort, so no child
 * outlives its job. Resolves with the exit code whatever it is; rejects only when it was stopped.
 */
export function exec(command: string, args: readonly string[], options: ExecOptions): Promise<ExecResult> {
  const maxOutput = options.maxOutput ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(stopped(command, options.signal));
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outLen = 0;
    let errLen = 0;
    child.stdout.on('data', (d: Buffer) => {
      if (outLen < maxOutput) out.push(d);
      outLen += d.length;
    });
    child.stderr.on('data', (d: Buffer) => {
      if (errLen < maxOutput) err.push(d);
      errLen += d.length;
    });
    let reason: ToolError | undefined;
    const kill = (why: ToolError) => {
      reason ??= why;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(
      () =>
        kill(new ToolError('timeout', undefined, { cause: new Error(`${command} ran past ${options.timeoutMs} ms`) })),
      options.timeoutMs,
    );
    const onAbort = () => kill(stopped(command, options.signal!));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(new ToolError('internal', undefined, { cause: e }));
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (reason) return reject(reason);
      resolve({
        code: code ?? (sig ? 128 : 1),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

function stopped(command: string, signal: AbortSignal): ToolError {
  const why = signal.reason;
  return why instanceof ToolError
    ? why
    : new ToolError('timeout', undefined, { cause: new Error(`${command} was stopped`) });
}
