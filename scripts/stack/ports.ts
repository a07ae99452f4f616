import { createServer } from 'node:net';

/** One port the stack is about to listen on, and what for (named in the error when it is taken). */
export interface PortUse {
  what: string;
  host: string;
  port: number;
}

/** An instance of the gateway or a service: its name (for its log) and port. */
export interface InstanceAt {
  name: string;
  port: number;
}

/** `count` instances of `what` from `port`: `pdf-editor`, then `pdf-editor-2` 100 ports up... */
export function instancesAt(what: string, port: number, count: number): InstanceAt[] {
  return Array.from({ length: count }, (_, k) => ({ name: k ? `${what}-${k + 1}` : what, port: port + 100 * k }));
}

/** Fails on the first port already taken, before anything is started. */
export async function checkPortsFree(uses: PortUse[]): Promise<void> {
  for (const { what, host, port } of uses) {
    if (!(await portIsFree(host, port))) {
      throw new Error(
        `Port ${port} on ${host} (for ${what}) is already in use: is another Quire stack running? Stop it, or choose other ports (PORT, or a port offset).`,
      );
    }
  }
}

async function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, host, () => server.close(() => done(true)));
  });
}

/** The address to reach a server listening on `listenHost` (a wildcard is reached on loopback). */
export function connectHost(listenHost: string): string {
  if (listenHost === '0.0.0.0') return '127.0.0.1';
  if (listenHost === '::') return '[::1]';
  return listenHost.includes(':') ? `[${listenHost}]` : listenHost;
}
