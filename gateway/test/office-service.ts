import { createServer, request as httpRequest, type Server } from 'node:http';
import { startService, type RunningService } from './services.ts';

export type { RunningService };

/**
 * Quire's office service as its own process, with one warm LibreOffice listener. Resolves once its
 * health check says LibreOffice is up.
 */
export function startOfficeService(timeoutMs = 150_000): Promise<RunningService> {
  return startService('office', { OFFICE_INSTANCES: '1' }, timeoutMs);
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
