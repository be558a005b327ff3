import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Address ranges that outbound requests on a tenant's behalf (webhooks) never reach, whatever
 * the operator allows, and the IPv6 forms that carry an IPv4 address. The configuration refuses
 * an allowed network that overlaps them (config-values.ts); the connection refuses an address in
 * them (src/modules/integrations/webhooks/webhooks.addresses.service.ts).
 */

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [IpAddress, number];

interface NamedRange {
  cidr: Cidr;
  name: string;
}

const range = (text: string, name: string): NamedRange => ({ cidr: ipaddr.parseCIDR(text), name });

/**
 * IPv6 addresses that embed an IPv4 one: connecting to them reaches (or is translated to) that
 * IPv4 address, so they would carry a private one past a check made on the IPv6 form. Refused
 * outright: a receiver has an IPv4 address (use it) or a native IPv6 one. `::/96` holds the
 * deprecated IPv4-compatible form (`::127.0.0.1`); `::` and `::1` are not embeddings.
 */
const EMBEDDING: NamedRange[] = [
  range('::/96', 'IPv4-compatible IPv6 addresses'),
  range('::ffff:0:0/96', 'IPv4-mapped IPv6 addresses'),
  range('::ffff:0:0:0/96', 'IPv4-translated IPv6 addresses'),
  range('64:ff9b::/96', 'NAT64 addresses'),
  range('64:ff9b:1::/48', 'local-use NAT64 addresses'),
  range('2002::/16', '6to4 addresses'),
  range('2001::/32', 'Teredo addresses'),
];

/** Never reached, even inside a network the operator lists. */
const NEVER: NamedRange[] = [
  range('0.0.0.0/8', 'this-network addresses (0.0.0.0 reaches the local host)'),
  range('169.254.0.0/16', 'link-local addresses (cloud metadata)'),
  range('224.0.0.0/4', 'multicast addresses'),
  range('240.0.0.0/4', 'reserved and broadcast addresses'),
  range('::/128', 'the unspecified address'),
  range('fe80::/10', 'link-local addresses'),
  range('fec0::/10', 'site-local addresses'),
  range('ff00::/8', 'multicast addresses'),
];

/**
 * Cloud metadata services outside the link-local ranges (Alibaba, AWS over IPv6, Oracle): never
 * reached, even inside a network the operator lists (a listed fd00::/8 does not open them).
 */
const METADATA: Cidr[] = ['100.100.100.200', 'fd00:ec2::254', 'fd00:ec2::23', '192.0.0.192'].map((a) => {
  const address = ipaddr.parse(a);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
});

const IPV6_LOOPBACK = ipaddr.parse('::1');
const IPV6_UNSPECIFIED = ipaddr.parse('::');

/** Whether `address` is in `cidr` (false across IPv4 and IPv6). */
export function inCidr(address: IpAddress, [network, prefix]: Cidr): boolean {
  return address.kind() === network.kind() && address.match(network, prefix);
}

/** Whether two networks share an address: one holds the other's first address. */
function overlaps(a: Cidr, b: Cidr): boolean {
  return inCidr(a[0], b) || inCidr(b[0], a);
}

const isLoopbackOrUnspecified6 = (address: IpAddress) =>
  address.kind() === 'ipv6' &&
  (address.toNormalizedString() === IPV6_LOOPBACK.toNormalizedString() ||
    address.toNormalizedString() === IPV6_UNSPECIFIED.toNormalizedString());

/** Which embedding of an IPv4 address `address` is, or null. */
export function embeddingOf(address: IpAddress): string | null {
  if (isLoopbackOrUnspecified6(address)) return null;
  return EMBEDDING.find((r) => inCidr(address, r.cidr))?.name ?? null;
}

/** Why a webhook never reaches `address`, listed or not (an embedding, link-local, metadata…), or null. */
export function neverReached(address: IpAddress): string | null {
  const embedding = embeddingOf(address);
  if (embedding) return embedding;
  const never = NEVER.find((r) => inCidr(address, r.cidr));
  if (never) return never.name;
  return METADATA.some((m) => inCidr(address, m)) ? 'a cloud metadata address' : null;
}

/** What in `cidr` webhooks never reach (the configuration refuses such a network), or null. */
export function overlapsNeverReached(cidr: Cidr): string | null {
  // ::1/128 is loopback, which an operator may list; the rest of ::/96 embeds IPv4 addresses.
  if (cidr[1] === 128 && isLoopbackOrUnspecified6(cidr[0])) return neverReached(cidr[0]);
  return [...EMBEDDING, ...NEVER].find((r) => overlaps(cidr, r.cidr))?.name ?? null;
}

/**
 * An address as text (IPv4, or IPv6 as `isIP` takes it), parsed. IPv6 text with a dotted tail is
 * read through WHATWG URL first: ipaddr.js reads `::127.0.0.1` as `::ffff:127.0.0.1`.
 */
export function parseAddress(text: string): IpAddress | null {
  const family = isIP(text);
  if (family === 4) return ipaddr.IPv4.parse(text);
  if (family !== 6 || text.includes('%')) return null;
  const canonical = text.includes('.') ? new URL(`http://[${text}]/`).hostname.slice(1, -1) : text;
  return ipaddr.IPv6.parse(canonical);
}

/** `a.b.c.d` in four decimal parts only (no `127.1`, `0x7f.0.0.1`, `0177.0.0.1`), or IPv6. */
export function parseStrictAddress(text: string): IpAddress | null {
  if (isIP(text) === 4 && !ipaddr.IPv4.isValidFourPartDecimal(text)) return null;
  return parseAddress(text);
}
