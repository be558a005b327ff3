import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { WebhookAllowList } from './config.js';
import { type Cidr, inCidr, neverReached, parseAddress } from './network-ranges.js';

/**
 * Where outbound requests on a tenant's behalf may go (SSRF): webhooks, and SSO discovery and
 * metadata (src/modules/access/sso). Public unicast addresses; besides them only what the operator
 * lists in `WEBHOOKS_ALLOWED_NETWORKS`:
 *
 * - an address inside a listed network (`10.20.0.0/16`, `127.0.0.1/32`), whatever the host name;
 * - for a listed host name (`hooks.internal.example`), the private-use addresses it resolves to
 *   (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) — not loopback, unless listed as a network.
 *
 * Never, listed or not: link-local addresses (169.254.169.254 and the other cloud metadata
 * services), this-network, multicast, broadcast and reserved ones, and IPv6 forms that embed an
 * IPv4 address (`::127.0.0.1`, `::ffff:…`, NAT64, 6to4, Teredo). URLs spell IPv4 addresses one
 * way: WHATWG URL parsing turns `2130706433`, `0x7f.1` and `127.1` into `127.0.0.1` first.
 *
 * The check is made when an endpoint is saved (a literal address, a local name) and again on
 * the address each connection is about to use (the `lookup` below), so a name that resolves
 * elsewhere later (DNS rebinding) cannot slip through; redirects are never followed.
 */

export class RefusedAddressError extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
}

const NO_LIST: WebhookAllowList = { networks: [], hosts: [] };
const PRIVATE_USE = new Set(['private', 'carrierGradeNat', 'uniqueLocal']);

const parsedNetworks = new Map<string, Cidr>();
function networksOf(list: WebhookAllowList): Cidr[] {
  return list.networks.map((text) => {
    let cidr = parsedNetworks.get(text);
    if (!cidr) {
      cidr = ipaddr.parseCIDR(text);
      parsedNetworks.set(text, cidr);
    }
    return cidr;
  });
}

/** A host name as the list holds it: lower case, without the trailing dot. */
const canonicalName = (host: string) => host.toLowerCase().replace(/\.$/, '');

/** Whether the operator listed this host name. */
export function isListedHost(host: string, list: WebhookAllowList = NO_LIST): boolean {
  return list.hosts.includes(canonicalName(host));
}

/**
 * Why a webhook may not connect to `address` (IPv4 or IPv6 text), or null when it may.
 * `listedHost`: the address is what a host name the operator listed resolved to.
 */
export function addressRefusal(
  address: string,
  list: WebhookAllowList = NO_LIST,
  listedHost = false,
): string | null {
  const parsed = parseAddress(address);
  if (!parsed) return 'is not an IP address';
  const never = neverReached(parsed);
  if (never) return `is one of the ${never}`;
  if (parsed.range() === 'unicast') return null;
  if (networksOf(list).some((cidr) => inCidr(parsed, cidr))) return null;
  if (listedHost && PRIVATE_USE.has(parsed.range())) return null;
  return 'is a private, loopback or reserved address';
}

/** Whether `address` is a public unicast address (nothing listed). */
export function isPublicAddress(address: string): boolean {
  return addressRefusal(address) === null;
}

/** Host names that are local whatever DNS says. */
function isLocalName(host: string): boolean {
  const name = canonicalName(host);
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name.endsWith('.local') ||
    name.endsWith('.internal')
  );
}

/**
 * The setting that would allow a refused private address or local name, for the message that
 * refuses it: settings are read when Vigil starts, so listing one takes a restart.
 */
const UNLESS_LISTED =
  'unless the operator lists its network or host name in WEBHOOKS_ALLOWED_NETWORKS and restarts Vigil';

/** The host of a URL without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Why an endpoint URL is refused before any DNS look-up (a literal address that is not allowed,
 * a local name not listed), or null. Names are checked again, resolved, on every delivery.
 */
export function refusedHost(url: URL, list: WebhookAllowList = NO_LIST): string | null {
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    if (addressRefusal(host, list) === null) return null;
    // What no setting opens (metadata, link-local, embeddings) gets no hint of one.
    const parsed = parseAddress(host);
    if (!parsed || neverReached(parsed))
      return 'must not point to a link-local, metadata or reserved address';
    return `must not point to a private, loopback or reserved address ${UNLESS_LISTED}`;
  }
  if (isListedHost(host, list)) return null;
  if (isLocalName(host)) return `must not point to a local host name ${UNLESS_LISTED}`;
  return null;
}

/**
 * A `lookup` for http(s).request that resolves the name and refuses the connection unless every
 * address it resolves to is allowed: the address checked is the address connected to.
 */
export function guardedLookup(list: WebhookAllowList = NO_LIST): LookupFunction {
  return (hostname, options, callback) => {
    const listedHost = isListedHost(hostname, list);
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.some((a) => addressRefusal(a.address, list, listedHost) !== null);
      if (addresses.length === 0 || refused) {
        return callback(
          new RefusedAddressError(
            `${hostname} resolves to a private, loopback or reserved address ${UNLESS_LISTED}`,
          ),
          '',
          0,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
