import { ToolError } from './errors.ts';
import { startProgram } from './spawner.ts';

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
 * Programs are started by a small helper process (see spawner.ts), not by this one: a fork costs what
 * the forking process maps, some 10 ms of a busy service's event loop per program.
 */
export function exec(command: string, args: readonly string[], options: ExecOptions): Promise<ExecResult> {
  const maxOutput = options.maxOutput ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(stopped(command, options.signal));
    let reason: ToolError | undefined;
    const run = startProgram(
      { command, args: [...args], cwd: options.cwd, env: options.env ?? process.env, maxOutput },
      (ended) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (reason) return reject(reason);
        if ('failure' in ended) return reject(new ToolError('internal', undefined, { cause: ended.failure }));
        resolve({ code: ended.code ?? (ended.signal ? 128 : 1), stdout: ended.stdout, stderr: ended.stderr });
      },
    );
    const kill = (why: ToolError) => {
      reason ??= why;
      run.kill();
    };
    const timer = setTimeout(
      () =>
        kill(new ToolError('timeout', undefined, { cause: new Error(`${command} ran past ${options.timeoutMs} ms`) })),
      options.timeoutMs,
    );
    const onAbort = () => kill(stopped(command, options.signal!));
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function stopped(command: string, signal: AbortSignal): ToolError {
  const why = signal.reason;
  return why instanceof ToolError
    ? why
    : new ToolError('timeout', undefined, { cause: new Error(`${command} was stopped`) });
}
