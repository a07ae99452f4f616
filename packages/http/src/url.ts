import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { ToolError } from '@quire/base';

/** Only addresses on the public internet may be fetched: not private, loopback, link-local, CGNAT, multicast... */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    // The deprecated IPv4-compatible form (::a.b.c.d, ::/96), which ipaddr calls unicast: a host with an
    // automatic tunnel sends it to the IPv4 address inside, 127.0.0.1 included.
    if (v6.parts.slice(0, 6).every((p) => p === 0)) return false;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
  }
  return ip.range() === 'unicast';
}

/**
 * Checks that a URL is http(s) and that every address its host resolves to is public.
 * `url_blocked` for a forbidden scheme or address, `url_unreachable` when the name does not resolve.
 */
export async function checkPublicUrl(raw: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError('invalid_url', 'Please enter a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolError('url_blocked');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host)
      ? [host]
      : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch (err) {
    throw new ToolError('url_unreachable', 'The address could not be found. Please check it and try again.', {
      cause: err,
    });
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) throw new ToolError('url_blocked');
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that resolves the name at connection time and refuses any answer
 * that is not public, so a name checked earlier cannot be pointed at an inside address since.
 */
export function publicLookup(host: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(host, { ...options, all: true, verbatim: true }).then(
    (found) => {
      const blocked = found.find((a) => !isPublicAddress(a.address));
      if (blocked || found.length === 0)
        return callback(Object.assign(new Error(`${host} is not a public address`), { code: 'EBLOCKED' }), []);
      if (options.all) return callback(null, found);
      callback(null, found[0]!.address, found[0]!.family);
    },
    (err: NodeJS.ErrnoException) => callback(err, []),
  );
}
