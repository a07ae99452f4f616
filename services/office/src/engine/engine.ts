import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Logger, RestartReason } from '@quire/base';
import type { Family } from '@quire/detect';
import { freshProfile, makeTemplate, pipeFiles, profileUrl } from './profile.ts';

/** What went wrong with a conversion, in the engine's terms; the routes turn these into answers. */
export type EngineErrorKind =
  | 'password_required'
  | 'wrong_password'
  | 'load_failed'
  | 'wrong_family'
  | 'export_failed'
  /** The listener died during the job (killed, crashed): the job is lost, the instance restarts. */
  | 'crashed'
  /** The job ran past its time: its listener was killed and restarts. */
  | 'timeout'
  /** No listener could be started, or the engine is closed. */
  | 'unavailable';

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    message: string = kind,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export interface ConvertRequest {
  input: string;
  output: string;
  password?: string;
  /** LibreOffice's PageRange, e.g. `1-3,5`. */
  pageRange?: string;
  landscape?: boolean;
  /** The application the document must open in; anything else is `wrong_family`. */
  expect?: Family;
  /** An import filter and its options, for formats LibreOffice cannot be left to guess (CSV). */
  importFilter?: string;
  importOptions?: string;
  /** Extra FilterData for the PDF export. */
  exportOptions?: Record<string, string | number | boolean>;
}

export interface ConvertResult {
  family: string;
  instance: number;
  /** Time the listener spent on it. */
  ms: number;
}

export interface EngineSettings {
  /** Listeners side by side. */
  instances: number;
  /** Restart a listener after this many jobs; 0 never. */
  restartAfter: number;
  startTimeoutMs: number;
  /** Longest a conversion may take before its listener is killed. */
  jobTimeoutMs: number;
  soffice: string;
  python: string;
  /** Where profiles and LibreOffice's own temp files live; removed on close. */
  root: string;
  /** Load each application once after a start, so the first real job is fast. */
  warmUp: boolean;
}

type State = 'starting' | 'idle' | 'busy' | 'restarting' | 'down' | 'stopped';

interface Instance {
  id: number;
  state: State;
  /** Bumped at every start, so that answers and exits of an older process are ignored. */
  generation: number;
  jobs: number;
  failures: number;
  /** A restart after N jobs, during which the engine still counts as healthy. */
  planned: boolean;
  proc?: ChildProcess;
  pipe?: string;
  /** The job in flight, to fail it (once `stopped`) when the listener dies. */
  current?: (err: EngineError, stopped: Promise<void>) => void;
  /** Resolves when the listener being restarted is dead. */
  stopping?: Promise<void>;
  /** Serialises starts and stops of this instance. */
  chain: Promise<void>;
}

interface Reply {
  id: number;
  ok: boolean;
  error?: string;
  detail?: string;
  family?: string;
  ms?: number;
}

/** Consecutive failed starts after which a listener no longer counts as coming back. */
const maxStartFailures = 3;

const helperScript = fileURLToPath(new URL('./uno_helper.py', import.meta.url));

/**
 * N warm `soffice` listeners, one profile each, driven by one long-lived python UNO helper. The
 * supervisor hands each job to an idle listener (first come, first served), kills the listener's
 * whole process group when a job runs past its time or is cancelled, restarts a listener after N
 * jobs and whenever it dies, and restarts the helper (and so every listener) if the helper dies.
 */
export class OfficeEngine {
  private readonly instances: Instance[];
  private helper?: Helper;
  private waiters: { take: (inst: Instance) => void; fail: (err: unknown) => void }[] = [];
  private closed = false;
  private started?: Promise<void>;
  private jobs = 0;
  /** An initialised profile new listeners start from, made from the first one that started. */
  private template?: Promise<string | undefined>;
  readonly restarts: Record<RestartReason, number> = { after_jobs: 0, timeout: 0, crash: 0 };

  constructor(
    readonly settings: EngineSettings,
    private readonly log: Logger,
    private readonly onRestart: (reason: RestartReason) => void = () => {},
  ) {
    this.instances = Array.from({ length: Math.max(1, settings.instances) }, (_, id) => ({
      id,
      state: 'starting' as State,
      generation: 0,
      jobs: 0,
      failures: 0,
      planned: false,
      chain: Promise.resolve(),
    }));
  }

  /** Starts the helper and every listener; resolves once each has had its first start. */
  start(): Promise<void> {
    this.started ??= (async () => {
      await mkdir(this.settings.root, { recursive: true, mode: 0o700 });
      this.helper = this.spawnHelper();
      await Promise.all(this.instances.map((inst) => this.schedule(inst)));
      if (!this.instances.some((i) => i.state === 'idle' || i.state === 'busy')) {
        throw new EngineError('unavailable', 'no LibreOffice listener could be started');
      }
    })();
    return this.started;
  }

  /** Converts one document on the next free listener. */
  async convert(req: ConvertRequest, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ConvertResult> {
    void this.start().catch(() => {});
    const inst = await this.acquire(opts.signal);
    const helper = this.helper!;
    const timeoutMs = Math.max(1, opts.timeoutMs ?? this.settings.jobTimeoutMs);
    // LibreOffice writes into its own directory, wiped at every restart, and the PDF is moved to
    // where it was asked for only on success: a killed job can never leave a file in a request's
    // work directory after that directory is gone.
    const scratch = join(this.settings.root, `i${inst.id}`, 'tmp', `job-${++this.jobs}.pdf`);
    return new Promise<ConvertResult>((resolve, reject) => {
      let settled = false;
      const settle = () => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        inst.current = undefined;
        return true;
      };
      /** Answers a failed job once its listener is dead, so nothing it does outlives the answer. */
      const failAfterStop = (err: unknown, stopped: Promise<void>) => void stopped.finally(() => reject(err));
      const timer = setTimeout(() => {
        if (settle())
          failAfterStop(
            new EngineError('timeout', `conversion ran past ${timeoutMs} ms`),
            this.restart(inst, 'timeout'),
          );
      }, timeoutMs);
      const onAbort = () => {
        const reason: unknown = opts.signal?.reason;
        if (settle()) failAfterStop(reason ?? new EngineError('timeout', 'cancelled'), this.restart(inst, 'timeout'));
      };
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      inst.current = (err, stopped) => {
        if (settle()) failAfterStop(err, stopped);
      };
      helper.request({ op: 'convert', instance: inst.id, ...req, output: scratch }).then(
        (reply) => {
          if (reply.ok) {
            if (!settle()) return;
            // Moved before the listener is released: a restart after N jobs wipes its directory.
            moveFile(scratch, req.output).then(
              () => {
                this.release(inst);
                resolve({ family: reply.family ?? '', instance: inst.id, ms: reply.ms ?? 0 });
              },
              (err: unknown) => {
                void rm(scratch, { force: true });
                this.release(inst);
                reject(new EngineError('export_failed', `the PDF could not be moved: ${String(err)}`));
              },
            );
          } else if (reply.error === 'disconnected') {
            if (settle()) failAfterStop(new EngineError('crashed', reply.detail), this.restart(inst, 'crash'));
          } else {
            if (!settle()) return;
            void rm(scratch, { force: true });
            this.release(inst);
            const kind = (reply.error ?? 'export_failed') as EngineErrorKind;
            reject(new EngineError(kind, reply.detail ?? kind));
          }
        },
        (err: unknown) => {
          // The helper died; its exit handler restarts everything.
          if (settle()) reject(err instanceof EngineError ? err : new EngineError('crashed', String(err)));
        },
      );
    });
  }

  /** Whether the engine can take jobs now: a listener is up, or restarting as planned. */
  get healthy(): boolean {
    return this.instances.some(
      (i) => i.state === 'idle' || i.state === 'busy' || (i.state === 'restarting' && i.planned),
    );
  }

  get waiting(): number {
    return this.waiters.length;
  }

  status() {
    return {
      healthy: this.healthy,
      waiting: this.waiters.length,
      restarts: { ...this.restarts },
      instances: this.instances.map((i) => ({ id: i.id, state: i.state, jobs: i.jobs, pid: i.proc?.pid })),
    };
  }

  /** The process group ids of the listeners, for tests that kill one mid-job. */
  listenerPids(): { instance: number; pid: number; busy: boolean }[] {
    return this.instances
      .filter((i) => i.proc?.pid !== undefined && i.proc.exitCode === null)
      .map((i) => ({ instance: i.id, pid: i.proc!.pid!, busy: i.state === 'busy' }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.fail(new EngineError('unavailable', 'the engine is closed'));
    // The helper first: a listener still starting stops waiting for it at once.
    this.helper?.kill();
    await Promise.all(
      this.instances.map(async (inst) => {
        inst.state = 'stopped';
        inst.current?.(new EngineError('unavailable', 'the engine is closed'), Promise.resolve());
        await inst.chain.catch(() => {});
        await this.stopListener(inst);
      }),
    );
    await rm(this.settings.root, { recursive: true, force: true, maxRetries: 3 });
  }

  // --- scheduling ----------------------------------------------------------------------------------

  private acquire(signal?: AbortSignal): Promise<Instance> {
    if (this.closed) return Promise.reject(new EngineError('unavailable', 'the engine is closed'));
    const idle = this.instances.find((i) => i.state === 'idle');
    if (idle) {
      idle.state = 'busy';
      idle.jobs++;
      return Promise.resolve(idle);
    }
    if (this.noneCanComeBack()) {
      return Promise.reject(new EngineError('unavailable', 'no LibreOffice listener is running'));
    }
    // A listener that is starting or restarting is waited for, within the job's own deadline (its
    // signal): a visitor would rather wait a few seconds than be told the service is unavailable.
    return new Promise<Instance>((resolve, reject) => {
      const waiter = {
        take: (inst: Instance) => {
          signal?.removeEventListener('abort', leave);
          resolve(inst);
        },
        fail: (err: unknown) => {
          signal?.removeEventListener('abort', leave);
          reject(err);
        },
      };
      const leave = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal?.reason ?? new EngineError('timeout', 'cancelled'));
      };
      if (signal?.aborted) return leave();
      signal?.addEventListener('abort', leave, { once: true });
      this.waiters.push(waiter);
    });
  }

  /**
   * True when no listener is up or on its way back: each is stopped, or failed to start
   * `maxStartFailures` times in a row (it still retries in the background, backing off).
   */
  private noneCanComeBack(): boolean {
    return this.instances.every((i) => i.state === 'stopped' || (i.state === 'down' && i.failures >= maxStartFailures));
  }

  /** A listener that finished a job: restart it if it has done enough, else give it the next job. */
  private release(inst: Instance): void {
    if (inst.state !== 'busy') return;
    if (this.settings.restartAfter > 0 && inst.jobs >= this.settings.restartAfter) {
      void this.restart(inst, 'after_jobs');
      return;
    }
    inst.state = 'idle';
    this.dispatch(inst);
  }

  private dispatch(inst: Instance): void {
    if (inst.state !== 'idle') return;
    const waiter = this.waiters.shift();
    if (!waiter) return;
    inst.state = 'busy';
    inst.jobs++;
    waiter.take(inst);
  }

  /** Restarts a listener: kills it at once, starts it again in the background. Resolves once it is dead. */
  private restart(inst: Instance, reason: RestartReason): Promise<void> {
    if (this.closed || inst.state === 'stopped' || inst.state === 'restarting' || inst.state === 'starting') {
      return inst.stopping ?? Promise.resolve();
    }
    this.restarts[reason]++;
    this.onRestart(reason);
    this.log.log(reason === 'after_jobs' ? 'info' : 'warn', 'restarting LibreOffice listener', {
      instance: inst.id,
      reason,
      jobs: inst.jobs,
    });
    inst.planned = reason === 'after_jobs';
    inst.state = 'restarting';
    const stopped = this.stopListener(inst);
    inst.stopping = stopped;
    inst.current?.(new EngineError('crashed', `listener restarted (${reason})`), stopped);
    void this.schedule(inst);
    return stopped;
  }

  /** Queues a (re)start of the listener behind whatever it is doing now. */
  private schedule(inst: Instance): Promise<void> {
    inst.chain = inst.chain
      .then(() => this.launch(inst))
      .catch((err: unknown) => {
        this.log.error('LibreOffice listener start failed', { instance: inst.id, err: String(err) });
      });
    return inst.chain;
  }

  private async launch(inst: Instance): Promise<void> {
    if (this.closed) return;
    const generation = ++inst.generation;
    await inst.stopping;
    inst.stopping = undefined;
    await this.stopListener(inst);
    this.helper?.notify({ op: 'disconnect', instance: inst.id });
    const dir = join(this.settings.root, `i${inst.id}`);
    const profile = join(dir, 'profile');
    const tmp = join(dir, 'tmp');
    await freshProfile(profile, await this.template);
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true, mode: 0o700 });
    const pipe = `quire-office-${process.pid}-${inst.id}-${generation}`;
    const proc = spawn(
      this.settings.soffice,
      [
        '--headless',
        '--invisible',
        '--norestore',
        '--nologo',
        '--nodefault',
        '--nofirststartwizard',
        '--nolockcheck',
        `-env:UserInstallation=${profileUrl(profile)}`,
        `--accept=pipe,name=${pipe};urp;StarOffice.ComponentContext`,
      ],
      { detached: true, stdio: 'ignore', env: { ...process.env, TMPDIR: tmp, SAL_USE_VCLPLUGIN: 'svp' } },
    );
    inst.proc = proc;
    inst.pipe = pipe;
    proc.on('error', (err) => this.log.error('soffice could not be started', { instance: inst.id, err: String(err) }));
    proc.on('exit', (code, sig) => this.onListenerExit(inst, proc, code, sig));
    const helper = this.helper!;
    const reply = await helper
      .request(
        {
          op: 'connect',
          instance: inst.id,
          pipe,
          timeoutMs: this.settings.startTimeoutMs,
          warmUp: this.settings.warmUp,
          pgid: proc.pid,
          scratch: tmp,
          // What the helper removes if the service dies without closing the engine.
          cleanup: [dir, ...pipeFiles(pipe, profile), this.settings.root],
        },
        this.settings.startTimeoutMs + 10_000,
      )
      .catch((err: unknown): Reply => ({ id: 0, ok: false, error: 'connect_failed', detail: String(err) }));
    if (this.closed || generation !== inst.generation) return;
    if (reply.ok && proc.exitCode === null) {
      if (!this.template) {
        // Made before this listener takes a job, so the copy holds nothing of any document.
        const template = join(this.settings.root, 'template');
        this.template = makeTemplate(profile, template).then(
          () => template,
          (err: unknown) => {
            this.log.warn('no profile template; listeners start from empty profiles', { err: String(err) });
            return undefined;
          },
        );
        await this.template;
        if (this.closed || generation !== inst.generation) return;
      }
    }
    if (reply.ok && proc.exitCode === null && proc.signalCode === null) {
      inst.state = 'idle';
      inst.jobs = 0;
      inst.failures = 0;
      inst.planned = false;
      this.log.info('LibreOffice listener ready', { instance: inst.id, pid: proc.pid, ms: reply.ms });
      this.dispatch(inst);
      return;
    }
    inst.failures++;
    inst.state = 'down';
    inst.planned = false;
    this.log.error('LibreOffice listener did not start', {
      instance: inst.id,
      detail: reply.detail,
      failures: inst.failures,
    });
    await this.stopListener(inst);
    if (this.noneCanComeBack()) {
      for (const w of this.waiters.splice(0))
        w.fail(new EngineError('unavailable', 'no LibreOffice listener is running'));
    }
    // Try again, at once the first time (a start that lost a race with a loaded machine), then backing
    // off, so a passing problem (memory, disk) heals itself.
    const delay = inst.failures === 1 ? 100 : Math.min(30_000, 1000 * 2 ** Math.min(inst.failures, 5));
    setTimeout(() => {
      if (!this.closed && inst.state === 'down' && generation === inst.generation) {
        inst.state = 'restarting';
        void this.schedule(inst);
      }
    }, delay).unref();
  }

  private onListenerExit(inst: Instance, proc: ChildProcess, code: number | null, sig: NodeJS.Signals | null): void {
    if (inst.proc !== proc || this.closed) return;
    if (inst.state === 'idle' || inst.state === 'busy') {
      this.log.warn('LibreOffice listener exited', { instance: inst.id, code, signal: sig });
      void this.restart(inst, 'crash');
    }
  }

  /** Kills the listener's whole process group and removes what it leaves behind. */
  private async stopListener(inst: Instance): Promise<void> {
    const proc = inst.proc;
    if (proc?.pid !== undefined && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(false), 5000);
        proc.once('exit', () => {
          clearTimeout(t);
          resolve(true);
        });
      });
      // soffice.bin first, so that its parent (oosplash, our child) reaps it and exits on its own:
      // killing both at once leaves soffice.bin to init, which not every container's init reaps.
      for (const child of await childrenOf(proc.pid)) signalProcess(child);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 1000))]);
      signalProcess(-proc.pid);
      await exited;
    }
    if (inst.pipe) {
      const profile = join(this.settings.root, `i${inst.id}`, 'profile');
      await Promise.all(pipeFiles(inst.pipe, profile).map((f) => rm(f, { force: true })));
    }
    await rm(join(this.settings.root, `i${inst.id}`, 'tmp'), { recursive: true, force: true });
  }

  // --- the helper ----------------------------------------------------------------------------------

  private spawnHelper(): Helper {
    const helper = new Helper(this.settings.python, this.log, () => {
      if (this.closed || this.helper !== helper) return;
      this.log.error('UNO helper exited; restarting it and every listener');
      this.helper = this.spawnHelper();
      for (const inst of this.instances) {
        if (inst.state === 'stopped') continue;
        if (inst.state === 'idle' || inst.state === 'busy' || inst.state === 'down') void this.restart(inst, 'crash');
        // Listeners in the middle of a start are waiting on the dead helper: start them again.
        else void this.schedule(inst);
      }
    });
    return helper;
  }
}

/** The python UNO helper: JSON lines in, JSON lines out, matched by id. */
class Helper {
  private readonly proc: ChildProcess;
  private readonly pending = new Map<
    number,
    { resolve: (r: Reply) => void; reject: (e: unknown) => void; timer?: NodeJS.Timeout }
  >();
  private seq = 0;
  private dead = false;

  constructor(python: string, log: Logger, onExit: () => void) {
    const env = { ...process.env };
    // A pyenv or virtualenv on PATH must not leak into the system python that has uno.
    delete env.PYTHONHOME;
    delete env.PYTHONPATH;
    this.proc = spawn(python, ['-u', helperScript], { stdio: ['pipe', 'pipe', 'pipe'], env });
    const out = createInterface({ input: this.proc.stdout! });
    out.on('line', (line) => {
      let reply: Reply;
      try {
        reply = JSON.parse(line) as Reply;
      } catch {
        log.warn('UNO helper said something else', { line: line.slice(0, 500) });
        return;
      }
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      clearTimeout(waiting.timer);
      waiting.resolve(reply);
    });
    const err = createInterface({ input: this.proc.stderr! });
    err.on('line', (line) => log.warn('UNO helper', { stderr: line.slice(0, 2000) }));
    this.proc.stdin!.on('error', () => {});
    this.proc.on('error', (e) => log.error('UNO helper could not be started', { err: String(e) }));
    this.proc.on('exit', (code, sig) => {
      this.dead = true;
      for (const [, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new EngineError('crashed', `UNO helper exited (${code ?? sig})`));
      }
      this.pending.clear();
      if (code !== 0 || sig) log.warn('UNO helper exited', { code, signal: sig });
      onExit();
    });
  }

  request(message: Record<string, unknown>, timeoutMs?: number): Promise<Reply> {
    if (this.dead) return Promise.reject(new EngineError('crashed', 'UNO helper is not running'));
    const id = ++this.seq;
    return new Promise<Reply>((resolve, reject) => {
      const entry: { resolve: (r: Reply) => void; reject: (e: unknown) => void; timer?: NodeJS.Timeout } = {
        resolve,
        reject,
      };
      if (timeoutMs) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new EngineError('timeout', `UNO helper did not answer ${String(message.op)} in ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      this.proc.stdin!.write(`${JSON.stringify({ ...message, id })}\n`);
    });
  }

  notify(message: Record<string, unknown>): void {
    if (!this.dead) this.proc.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  kill(): void {
    this.dead = true;
    this.proc.stdin!.end();
    // It exits on end of input after killing what it knows of; make sure.
    setTimeout(() => this.proc.kill('SIGKILL'), 2000).unref();
  }
}

function signalProcess(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** The direct children of a process, from /proc (Linux); none where that is not available. */
async function childrenOf(pid: number): Promise<number[]> {
  try {
    const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
    return text.split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Moves a file, across file systems too. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}
