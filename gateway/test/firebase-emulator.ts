/**
 * The Firebase Authentication emulator for tests: started on free ports in a temporary directory, and
 * used through its REST API. How it is started is shared with the launcher (src/auth-emulator.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoProjectId, prepareAuthEmulator } from '../src/auth-emulator.ts';

export { demoProjectId };

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
