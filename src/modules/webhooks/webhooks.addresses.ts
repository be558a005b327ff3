import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go (SSRF). Unless the operator allows private networks
 * (`WEBHOOKS_ALLOW_PRIVATE_NETWORKS`), only public unicast addresses: never loopback, private,
 * link-local (the cloud metadata address 169.254.169.254 included), carrier-grade NAT, unique
 * local, multicast, unspecified, reserved or documentation ranges, nor IPv4-mapped (or
 * translated) IPv6 forms of those. The check is made on the address a connection is about to
 * use (the `lookup` below), so a name that resolves elsewhere later (DNS rebinding) cannot
 * slip through; redirects are never followed.
 */

/** Whether `address` (IPv4 or IPv6 text) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}

export class RefusedAddressError extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
}

/** Host names that are local whatever DNS says. */
function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name.endsWith('.local') ||
    name.endsWith('.internal')
  );
}

/** The host of a URL without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Why an endpoint URL is refused before any DNS look-up (a literal private address, a local
 * name), or null. Names are checked again, resolved, on every delivery.
 */
export function refusedHost(url: URL, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    return isPublicAddress(host) ? null : 'must not point to a private, loopback or reserved address';
  }
  if (isLocalName(host)) return 'must not point to a local host name';
  return null;
}

/**
 * A `lookup` for http(s).request that resolves the name and refuses the connection unless every
 * address is public: the address checked is the address connected to.
 */
export function publicOnlyLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const usable = allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (usable.length === 0 || usable.length !== addresses.length) {
        return callback(
          new RefusedAddressError(`${hostname} resolves to a private, loopback or reserved address`),
          '',
          0,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      const first = usable[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
