import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { PolicyError, type Pinned } from './address.ts';

export interface HopRequest {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface HopResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers that describe one connection, or that we set ourselves, never passed on either way. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'content-encoding',
  'alt-svc',
  'strict-transport-security',
]);

export function cleanHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (hopByHop.has(lower) || lower.startsWith(':')) continue;
    out[lower] = value;
  }
  return out;
}

/**
 * One HTTP exchange, connected to the pinned address (the one the policy checked, whatever DNS says
 * now), never following a redirect: the caller checks each hop. The body is decompressed here and
 * cut off past `maxBytes`.
 */
export function fetchHop(
  url: URL,
  req: HopRequest,
  pinned: Pinned,
  opts: { maxBytes: number; timeoutMs: number; signal: AbortSignal },
): Promise<HopResponse> {
  const lookup = ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, [{ address: pinned.address, family: pinned.family }]);
    else cb(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<HopResponse>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: req.method,
        headers: { ...cleanHeaders(req.headers), 'accept-encoding': 'gzip, deflate, br' },
        lookup,
        agent: false,
        signal: opts.signal,
        timeout: opts.timeoutMs,
        // The pinned address is connected to; certificates are still checked against the host name.
        ...(url.protocol === 'https:' ? { servername: url.hostname.replace(/^\[|\]$/g, '') } : {}),
      },
      (res) => {
        const encoding = String(res.headers['content-encoding'] ?? '')
          .toLowerCase()
          .trim();
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            res.destroy();
            reject(new PolicyError('unreachable', `response larger than ${opts.maxBytes} bytes`));
          } else chunks.push(chunk);
        });
        res.on('error', (err) => reject(new PolicyError('unreachable', 'response could not be read', { cause: err })));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined || hopByHop.has(name)) continue;
            headers[name] = Array.isArray(value) ? value.join('\n') : value;
          }
          decode(Buffer.concat(chunks), encoding, opts.maxBytes).then(
            (body) => resolve({ status: res.statusCode ?? 502, statusText: res.statusMessage ?? '', headers, body }),
            reject,
          );
        });
      },
    );
    request.on('timeout', () =>
      request.destroy(new PolicyError('unreachable', `no answer within ${opts.timeoutMs} ms`)),
    );
    request.on('error', (err) =>
      reject(
        err instanceof PolicyError || opts.signal.aborted
          ? err
          : new PolicyError('unreachable', err.message, { cause: err }),
      ),
    );
    request.end(req.body);
  });
}

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotli = promisify(zlib.brotliDecompress);

/** The body as the page should see it, decompressed within the size limit. */
async function decode(raw: Buffer, encoding: string, maxBytes: number): Promise<Buffer> {
  if (raw.length === 0 || encoding === '' || encoding === 'identity') return raw;
  const limit = { maxOutputLength: maxBytes };
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return await gunzip(raw, limit);
    if (encoding === 'br') return await brotli(raw, limit);
    if (encoding === 'deflate') return await inflate(raw, limit).catch(() => inflateRaw(raw, limit));
  } catch (err) {
    throw new PolicyError('unreachable', `response body could not be decoded (${encoding})`, { cause: err });
  }
  throw new PolicyError('unreachable', `unknown content encoding ${encoding}`);
}
