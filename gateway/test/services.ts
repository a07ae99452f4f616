import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverArgs } from '@quire/base';
import type { ServiceName } from '@quire/catalog';
import { freePort } from './firebase-emulator.ts';

const root = new URL('../../', import.meta.url).pathname;

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

export interface ServiceProcess extends RunningService {
  /** Its WORK_DIR: where its requests' work folders are made. */
  workDir: string;
}

/**
 * A service as its own process, reached over HTTP as the gateway reaches it in production (the
 * gateway's code, tests included, never imports a service), with a work directory of its own.
 * Resolves once its health check says it is up.
 */
export async function startService(
  name: ServiceName,
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<ServiceProcess> {
  const port = await freePort();
  const workDir = mkdtempSync(join(tmpdir(), `quire-gw-${name}-`));
  const entry = join(root, `services/${name}/src/main.ts`);
  const proc = spawn(process.execPath, serverArgs(entry), {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', WORK_DIR: workDir, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    // SIGTERM: a service stops what it started (the office service its listeners) before it exits.
    proc.kill('SIGTERM');
    const killed = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killed);
    rmSync(workDir, { recursive: true, force: true });
  };
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the ${name} service exited: ${stderr}`);
    const up = await fetch(`${url}/health`, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, workDir, stop };
    if (Date.now() > end) {
      await stop();
      throw new Error(`the ${name} service did not come up in time: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
