import ipaddr from 'ipaddr.js';

/**
 * Connections per client: an IPv4 address, or an IPv6 /64 (what one host is usually given, so a
 * host cannot take a fresh address for each connection). An IPv4-mapped IPv6 address is IPv4.
 */
export function clientKey(remoteAddress: string): string {
  if (!ipaddr.isValid(remoteAddress)) return remoteAddress;
  let address = ipaddr.parse(remoteAddress);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}

/** Counts each client's open connections; `take` refuses one past the limit. */
export class ConnectionsPerClient {
  private readonly open = new Map<string, number>();
  constructor(private readonly limit: number) {}

  /** Counts a connection of this client, or returns false (nothing counted) past the limit. */
  take(key: string): boolean {
    const count = this.open.get(key) ?? 0;
    if (count >= this.limit) return false;
    this.open.set(key, count + 1);
    return true;
  }

  release(key: string): void {
    const count = (this.open.get(key) ?? 0) - 1;
    if (count <= 0) this.open.delete(key);
    else this.open.set(key, count);
  }

  /** Clients holding a connection now. */
  get clients(): number {
    return this.open.size;
  }
}
