/**
 * The Firebase Authentication emulator (firebase-tools, Node only: Java is needed by other emulators,
 * not this one), for local runs without a Firebase project and for the tests. Each instance has a
 * directory of its own holding its firebase.json, its logs and its temporary files (the hub's locator
 * file among them, so that two instances of one project never share it).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The project every local run and test uses: a `demo-` project never reaches Google. */
export const demoProjectId = 'demo-quire';

export interface AuthEmulatorPorts {
  /** The Auth emulator itself, the one the gateway and the browser talk to. */
  auth: number;
  /** The emulator suite's hub and logging ports, which it would otherwise take from fixed defaults. */
  hub: number;
  logging: number;
}

export interface AuthEmulatorCommand {
  command: string;
  args: string[];
  /** Run from here: firebase-tools reads firebase.json and writes its debug log in its working directory. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `127.0.0.1:<port>`, for FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  /** `http://127.0.0.1:<port>`: it answers 200 at `/` once it is ready. */
  url: string;
}

/** The firebase-tools command line program. */
export function firebaseCli(): string {
  const pkg = createRequire(import.meta.url).resolve('firebase-tools/package.json');
  return join(dirname(pkg), 'lib', 'bin', 'firebase.js');
}

/** Writes the emulator's firebase.json into `dir` and returns how to start it (not started). */
export async function prepareAuthEmulator(opts: {
  dir: string;
  ports: AuthEmulatorPorts;
  projectId?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<AuthEmulatorCommand> {
  const host = '127.0.0.1';
  const tmp = join(opts.dir, 'tmp');
  await mkdir(tmp, { recursive: true });
  const config = {
    emulators: {
      auth: { port: opts.ports.auth, host },
      hub: { port: opts.ports.hub, host },
      logging: { port: opts.ports.logging, host },
      ui: { enabled: false },
    },
  };
  await writeFile(join(opts.dir, 'firebase.json'), `${JSON.stringify(config, null, 2)}\n`);
  return {
    command: process.execPath,
    args: [firebaseCli(), 'emulators:start', '--only', 'auth', '--project', opts.projectId ?? demoProjectId],
    cwd: opts.dir,
    env: { ...(opts.env ?? process.env), TMPDIR: tmp, NO_UPDATE_NOTIFIER: '1', FORCE_COLOR: '0' },
    host: `${host}:${opts.ports.auth}`,
    url: `http://${host}:${opts.ports.auth}`,
  };
}

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export interface RunningAuthEmulator {
  /** For FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  url: string;
  projectId: string;
  /** Kills the emulator's process group and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts an Auth emulator on free ports in a temporary directory and waits until it answers (a
 * minute or more on a busy machine: firebase-tools loads a lot). For tests; the stack supervises its
 * own with prepareAuthEmulator.
 */
export async function startAuthEmulator(
  opts: { projectId?: string; timeoutMs?: number } = {},
): Promise<RunningAuthEmulator> {
  const projectId = opts.projectId ?? demoProjectId;
  const dir = await mkdtemp(join(tmpdir(), 'quire-auth-emulator-'));
  const ports = { auth: await freePort(), hub: await freePort(), logging: await freePort() };
  const cmd = await prepareAuthEmulator({ dir, ports, projectId });
  const proc = spawn(cmd.command, cmd.args, {
    cwd: cmd.cwd,
    env: cmd.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((done) => {
    proc.once('exit', () => {
      exited = true;
      done();
    });
    proc.once('error', (err) => {
      exited = true;
      output += `\n${err.message}`;
      done();
    });
  });
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (proc.pid !== undefined) process.kill(-proc.pid, signal);
    } catch {
      // gone already
    }
  };
  const stop = async () => {
    if (!exited) {
      killGroup('SIGTERM');
      await Promise.race([exit, new Promise((r) => setTimeout(r, 5000).unref())]);
    }
    killGroup('SIGKILL');
    await Promise.race([exit, new Promise((r) => setTimeout(r, 2000).unref())]);
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 180_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`The Auth emulator stopped before it was ready:\n${output}`);
    }
    const ready = await fetch(`${cmd.url}/`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The Auth emulator was not ready at ${cmd.url} in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { host: cmd.host, url: cmd.url, projectId, stop };
}

/** Creates an e-mail account on the emulator; returns its ID token and user id. */
export async function emulatorSignUp(
  emulatorUrl: string,
  email: string,
  password = 'secret-password',
): Promise<{ idToken: string; localId: string }> {
  const res = await fetch(`${emulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken?: string; localId?: string; error?: { message?: string } };
  if (!res.ok || !body.idToken || !body.localId) {
    throw new Error(`signUp failed: ${res.status} ${body.error?.message ?? ''}`);
  }
  return { idToken: body.idToken, localId: body.localId };
}
