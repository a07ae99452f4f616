import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './firebase-emulator.ts';

const root = new URL('../../', import.meta.url).pathname;

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

/**
 * Quire's office service as its own process, reached over HTTP as the gateway reaches it in
 * production (the gateway's code, tests included, never imports a service), with one warm
 * LibreOffice listener. Resolves once its health check says LibreOffice is up.
 */
export async function startOfficeService(timeoutMs = 150_000): Promise<RunningService> {
  const port = await freePort();
  const work = mkdtempSync(join(tmpdir(), 'quire-gw-office-'));
  const entry = join(root, 'services/office/src/main.ts');
  const proc = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', OFFICE_INSTANCES: '1', WORK_DIR: work },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    // SIGTERM: the service stops its listeners and removes their profiles before it exits.
    proc.kill('SIGTERM');
    const killed = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killed);
    rmSync(work, { recursive: true, force: true });
  };
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the office service exited: ${stderr}`);
    const up = await fetch(`${url}/health`, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, stop };
    if (Date.now() > end) {
      await stop();
      throw new Error(`the office service did not come up in time: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * A stand-in for the official Gotenberg image, which cannot run here: Quire's office service speaks
 * Gotenberg's LibreOffice route, so this passes every request on to it, except `/version`, which it
 * answers as Gotenberg does (its release alone), leaves out what only Quire's answers carry, and
 * records the paths it was asked for.
 */
export async function gotenbergInFrontOf(office: string): Promise<RunningService & { paths: string[] }> {
  const paths: string[] = [];
  const target = new URL(office);
  const server: Server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    if (req.url === '/version') return void res.end('8.17.3');
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        // Gotenberg says nothing of what it checked.
        const { 'x-quire-properties': _checked, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, paths, stop: () => new Promise<void>((r) => server.close(() => r())) };
}
