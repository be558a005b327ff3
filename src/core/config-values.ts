import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { type Cidr, neverReached, overlapsNeverReached, parseStrictAddress } from './network-ranges.js';

/**
 * How each environment setting is read: a bad value is a ConfigError whose message is one line
 * naming the variable (the value is quoted as JSON, so it cannot break the line).
 */

export const DEFAULT_DATABASE_URL = 'sqlite:./data/vigil.db';

export class ConfigError extends Error {}

const quoted = (raw: string) => JSON.stringify(raw);

export function integer(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${quoted(raw)}`);
  }
  return Number(raw);
}

/** The names proxy-addr (Fastify's `trustProxy`) knows besides addresses and ranges. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** `a.b.c.d`, `a:b::c`, with an optional `/prefix` or (IPv4) `/netmask`. */
function isAddressOrRange(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/**
 * `true` trusts every hop (the client's own X-Forwarded-For included: only right when every
 * request comes through the proxy), a number trusts that many hops, addresses trust those proxies.
 */
export function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw) && Number(raw) <= 100) return Number(raw) === 0 ? false : Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every(isAddressOrRange)) return entries.join(',');
  throw new ConfigError(
    `TRUST_PROXY must be true, false, a hop count from 0 to 100, or comma-separated proxy addresses or ranges (e.g. 10.0.0.0/8, or loopback), got ${quoted(raw)}`,
  );
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function logLevel(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((name) => name === raw.toLowerCase());
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${quoted(raw)}`);
  return level;
}

/** A name or address to listen on (`0.0.0.0` or `::` for every interface). */
export function host(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '127.0.0.1';
  const label = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
  if (isIP(raw) !== 0 || (raw.length <= 253 && new RegExp(`^${label}(?:\\.${label})*\\.?$`).test(raw))) {
    return raw;
  }
  throw new ConfigError(
    `HOST must be an IP address or a host name to listen on (e.g. 0.0.0.0), got ${quoted(raw)}`,
  );
}

export function databaseUrl(raw: string | undefined): string {
  const url = raw || DEFAULT_DATABASE_URL;
  const expected = 'DATABASE_URL must be sqlite:PATH or postgres://user@host:5432/database';
  if (url.startsWith('sqlite:')) return url;
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new ConfigError(`${expected}, got ${quoted(redactPassword(url))}`);
  if (!URL.canParse(url))
    throw new ConfigError(`${expected}; ${quoted(redactPassword(url))} is not a valid URL`);
  return url;
}

export function redisUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^rediss?:\/\/[^/]/.test(raw) || !URL.canParse(raw)) {
    throw new ConfigError(
      `REDIS_URL must be redis://host:6379 or rediss://…, got ${quoted(redactPassword(raw))}`,
    );
  }
  return raw;
}

/** A URL as it may be shown in a message: its password replaced. */
export function redactPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}

export function cookieSecret(raw: string | undefined, name = 'SESSION_SECRET'): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 32) throw new ConfigError(`${name} must be at least 32 characters`);
  return raw;
}

export function publicUrl(raw: string | undefined, name = 'PUBLIC_URL'): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got ${quoted(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got ${quoted(raw)}`);
  }
  return url.href.replace(/\/+$/, '');
}

export function smtpUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^smtps?:\/\/[^/]/.test(raw) || !URL.canParse(raw)) {
    throw new ConfigError(
      `SMTP_URL must be smtp://user:pass@host:587 or smtps://…:465, got ${quoted(redactPassword(raw))}`,
    );
  }
  return raw;
}

/** `Name <address>` or a bare address, on one line (it becomes the From header). */
export function mailFrom(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'Security training <training@vigil.invalid>';
  const address = '[^<>@\\s]+@[^<>@\\s]+';
  if (!new RegExp(`^(?:[^<>\\r\\n]*<${address}>|${address})$`).test(raw.trim())) {
    throw new ConfigError(`MAIL_FROM must be an address or Name <address>, got ${quoted(raw)}`);
  }
  return raw.trim();
}

/** Prefix of rate-limit counters in Redis: printable, no spaces. */
export function keyPrefix(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'vigil:rl';
  if (!/^[\x21-\x7e]{1,100}$/.test(raw)) {
    throw new ConfigError(
      `RATE_LIMIT_PREFIX must be 1 to 100 printable characters without spaces, got ${quoted(raw)}`,
    );
  }
  return raw;
}

export function metricsToken(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  return raw;
}

export function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got ${quoted(env[name] ?? '')}`);
}

/**
 * The non-public networks and hosts webhooks may reach (an on-premises receiver): `networks` in
 * canonical CIDR form, `hosts` lower-case without a trailing dot. Empty: public addresses only.
 */
export interface WebhookAllowList {
  networks: string[];
  hosts: string[];
}

const ALLOWED_NETWORKS = 'WEBHOOKS_ALLOWED_NETWORKS';
const HOST_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** One entry as a network: `10.20.0.0/16`, `fd00:1::/64`, or one address (`10.1.2.3`, `fd00::7`). */
function allowedNetwork(entry: string): string | null {
  const [text = '', prefixText, ...rest] = entry.split('/');
  const address = parseStrictAddress(text);
  if (!address) return null;
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  if (rest.length > 0 || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) {
    throw new ConfigError(`${ALLOWED_NETWORKS}: ${quoted(entry)} has a prefix longer than ${bits} bits`);
  }
  const network = (address.kind() === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6)
    .networkAddressFromCIDR(`${text}/${prefix}`)
    .toString();
  if (network !== address.toString()) {
    throw new ConfigError(
      `${ALLOWED_NETWORKS}: ${quoted(entry)} has bits set past its prefix; write the network, ${network}/${prefix}`,
    );
  }
  const cidr: Cidr = [address, prefix];
  const never = overlapsNeverReached(cidr) ?? (prefix === bits ? neverReached(address) : null);
  if (never) {
    throw new ConfigError(
      `${ALLOWED_NETWORKS}: ${quoted(entry)} includes ${never}, which webhooks never reach; list narrower networks`,
    );
  }
  return `${network}/${prefix}`;
}

/** One entry as a host name, as URLs write it (lower case, ASCII, not a number), or null. */
function allowedHost(entry: string): string | null {
  const name = entry.toLowerCase().replace(/\.$/, '');
  if (name.length > 253 || !name.split('.').every((label) => HOST_LABEL.test(label))) return null;
  // What URLs make of it: `127.1` and `0x7f.1` become 127.0.0.1, so they are no names.
  const parsed = URL.canParse(`http://${name}/`) ? new URL(`http://${name}/`).hostname : '';
  return parsed === name ? name : null;
}

/**
 * `WEBHOOKS_ALLOWED_NETWORKS`: comma-separated networks (CIDR, or one address) and host names
 * that webhooks may reach although they are not public. Replaces WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
 * which opened every internal address to every tenant: setting that one stops the start.
 */
export function webhookAllowList(env: NodeJS.ProcessEnv): WebhookAllowList {
  const old = env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS;
  if (old !== undefined && old !== '') {
    throw new ConfigError(
      `WEBHOOKS_ALLOW_PRIVATE_NETWORKS is no longer read (it opened every internal address): remove it, and list the networks or hosts of on-premises receivers in ${ALLOWED_NETWORKS} (e.g. 10.20.0.0/16,hooks.internal.example); got ${quoted(old)}`,
    );
  }
  const raw = env.WEBHOOKS_ALLOWED_NETWORKS ?? '';
  const list: WebhookAllowList = { networks: [], hosts: [] };
  for (const entry of raw.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const network = allowedNetwork(entry);
    const host = network === null ? allowedHost(entry) : null;
    if (network !== null) list.networks.push(network);
    else if (host !== null) list.hosts.push(host);
    else {
      throw new ConfigError(
        `${ALLOWED_NETWORKS} must be comma-separated networks (10.20.0.0/16, fd00:1::/64, 10.1.2.3) or host names (hooks.internal.example); ${quoted(entry)} is neither`,
      );
    }
  }
  return list;
}

/**
 * `PHISHING_SENDING_IPS`: comma-separated addresses or networks (CIDR) the SMTP relay sends
 * simulations from, for the allow-listing sheet (Microsoft 365's advanced delivery policy and
 * Gmail's allowlist need them). Normalised: a single address without a prefix, a network as its
 * network address and prefix. Empty: unknown (the sheet says to ask the SMTP provider).
 */
export function sendingIps(raw: string | undefined): string[] {
  const name = 'PHISHING_SENDING_IPS';
  const list: string[] = [];
  for (const entry of (raw ?? '').split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const [text = '', prefixText, ...rest] = entry.split('/');
    const address = parseStrictAddress(text);
    if (!address || rest.length > 0 || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) {
      throw new ConfigError(
        `${name} must be comma-separated IP addresses or networks (203.0.113.25, 198.51.100.0/24, 2001:db8::/48), got ${quoted(entry)}`,
      );
    }
    const bits = address.kind() === 'ipv4' ? 32 : 128;
    const prefix = prefixText === undefined ? bits : Number(prefixText);
    if (prefix > bits || prefix < (bits === 32 ? 8 : 16)) {
      throw new ConfigError(
        `${name}: ${quoted(entry)} must have a prefix between /${bits === 32 ? 8 : 16} and /${bits}`,
      );
    }
    const network = (address.kind() === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6)
      .networkAddressFromCIDR(`${text}/${prefix}`)
      .toString();
    if (network !== address.toString()) {
      throw new ConfigError(
        `${name}: ${quoted(entry)} has bits set past its prefix; write the network, ${network}/${prefix}`,
      );
    }
    const value = prefix === bits ? network : `${network}/${prefix}`;
    if (!list.includes(value)) list.push(value);
    if (list.length > 100) throw new ConfigError(`${name} lists more than 100 entries`);
  }
  return list;
}
