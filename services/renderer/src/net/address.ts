import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress } from '@quire/http';
import { abortable } from '../browser.ts';

/** Why a request may not go out: a forbidden place (`blocked`) or one that cannot be reached. */
export class PolicyError extends Error {
  constructor(
    readonly kind: 'blocked' | 'unreachable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PolicyError';
  }
}

/** Where a checked request connects: the address its host resolved to, pinned for the connection. */
export interface Pinned {
  address: string;
  family: 4 | 6;
}

export function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/**
 * Checks a URL before anything is sent: http(s) only, and every address its host resolves to must be
 * public (not private, loopback, link-local, CGNAT, multicast, unspecified, ULA, nor IPv4-mapped forms
 * of those). Returns the address to connect to, so that a second DNS answer cannot swap it.
 * `allowPrivate` holds `host:port` pairs exempt from the address check: for tests only.
 */
export async function resolveAllowed(
  url: URL,
  allowPrivate: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<Pinned> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PolicyError('blocked', `scheme ${url.protocol} is not allowed`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === '') throw new PolicyError('blocked', 'no host');
  const exempt = allowPrivate.has(`${url.hostname.toLowerCase()}:${defaultPort(url)}`);
  let addresses: Pinned[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) as 4 | 6 }];
  } else {
    try {
      const found = lookup(host, { all: true, verbatim: true });
      addresses = (await (signal ? abortable(found, signal) : found)).map((a) => ({
        address: a.address,
        family: a.family as 4 | 6,
      }));
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new PolicyError('unreachable', `${host} does not resolve`, { cause: err });
    }
  }
  if (addresses.length === 0) throw new PolicyError('unreachable', `${host} has no address`);
  if (!exempt) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw new PolicyError('blocked', `${host} resolves to a forbidden address ${bad.address}`);
  }
  return addresses[0]!;
}
