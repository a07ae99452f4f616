import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/**
 * A connection to a service's address (`http://host:port` or `https://…`), resolved once it is made:
 * what is sent on it afterwards is known to have reached a listener, and a refusal (ECONNREFUSED)
 * to have reached none.
 */
export function connect(base: string, signal: AbortSignal): Promise<Socket> {
  const url = new URL(base);
  const secure = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port) || (secure ? 443 : 80);
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const socket: Socket = secure
      ? tlsConnect({ host, port, ...(isIP(host) ? {} : { servername: host }) })
      : netConnect({ host, port });
    const abort = () => socket.destroy(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    const settle = (err?: Error) => {
      signal.removeEventListener('abort', abort);
      if (err) reject(err);
      else resolve(socket);
    };
    socket.once('error', settle);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      socket.off('error', settle);
      settle();
    });
  });
}
