import ipaddr from 'ipaddr.js';
import type { FieldErrorCollector } from '../../../core/errors.js';

/**
 * What tells a machine from a person before any timing is looked at: the user agents of HTTP
 * libraries, mail security products, image proxies and link previewers that `isbot` misses or
 * that deserve their own reason, and an account's scanner networks (CIDR). Pure and
 * synchronous: it runs on every tracking hit.
 */

/** Why a user agent is not a person's browser; each is a reason code of its own. */
export type UserAgentCategory = 'http_library' | 'mail_security' | 'image_proxy' | 'link_preview';

export interface UserAgentSignature {
  readonly name: string;
  readonly category: UserAgentCategory;
  /** Case-insensitive, anchored on words so no browser's user agent matches. */
  readonly pattern: RegExp;
  /** A user agent this entry must recognise (the tests check each one). */
  readonly sample: string;
}

const sig = (name: string, category: UserAgentCategory, pattern: RegExp, sample: string) =>
  ({ name, category, pattern, sample }) as const;

/**
 * Most mail security products fetch with a browser's user agent from their own networks (so the
 * account's scanner networks and the delivery window catch them); the vendor names here catch
 * the fetches that announce themselves. First match wins, so libraries come before the
 * products that embed them.
 */
export const USER_AGENT_SIGNATURES: readonly UserAgentSignature[] = [
  sig('curl', 'http_library', /\bcurl\//i, 'curl/8.5.0'),
  sig('Wget', 'http_library', /\bwget\//i, 'Wget/1.21.4'),
  sig('python-requests', 'http_library', /\bpython-requests\//i, 'python-requests/2.32.3'),
  sig('Python urllib', 'http_library', /\bpython-urllib\//i, 'Python-urllib/3.12'),
  sig('aiohttp', 'http_library', /\baiohttp\//i, 'Python/3.12 aiohttp/3.9.5'),
  sig('HTTPX', 'http_library', /\bpython-httpx\//i, 'python-httpx/0.27.0'),
  sig('Go net/http', 'http_library', /\bgo-http-client\//i, 'Go-http-client/2.0'),
  sig(
    'Apache HttpClient',
    'http_library',
    /\bapache-httpclient\//i,
    'Apache-HttpClient/4.5.14 (Java/17.0.9)',
  ),
  sig('Java', 'http_library', /\bjava\/\d/i, 'Java/17.0.2'),
  sig('OkHttp', 'http_library', /\bokhttp\//i, 'okhttp/4.12.0'),
  sig('axios', 'http_library', /\baxios\//i, 'axios/1.7.7'),
  sig(
    'node-fetch',
    'http_library',
    /\bnode-fetch\b/i,
    'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
  ),
  sig('Node.js fetch (undici)', 'http_library', /^(?:node|undici)$/i, 'node'),
  sig('got', 'http_library', /^got \(/i, 'got (https://github.com/sindresorhus/got)'),
  sig('libwww-perl', 'http_library', /\blibwww-perl\//i, 'libwww-perl/6.72'),
  sig(
    'PowerShell',
    'http_library',
    /\b(?:windows)?powershell\/\d/i,
    'Mozilla/5.0 (Windows NT 10.0; Microsoft Windows 10.0.19045; en-US) PowerShell/7.4.1',
  ),
  sig('Guzzle', 'http_library', /\bguzzlehttp\//i, 'GuzzleHttp/7'),
  sig('Faraday', 'http_library', /\bfaraday v\d/i, 'Faraday v2.9.0'),
  sig('rest-client', 'http_library', /\brest-client\//i, 'rest-client/2.1.0 (linux x86_64) ruby/3.2.2p53'),
  sig('Ruby', 'http_library', /^ruby$/i, 'Ruby'),
  sig('HTTPie', 'http_library', /\bhttpie\//i, 'HTTPie/3.2.2'),
  sig('reqwest', 'http_library', /\breqwest\//i, 'reqwest/0.12.9'),
  sig('Dart', 'http_library', /\(dart:io\)/i, 'Dart/3.4 (dart:io)'),
  sig('Postman', 'http_library', /\bpostmanruntime\//i, 'PostmanRuntime/7.42.0'),
  // Office checks that a link exists before handing it to the browser; the person's own GET follows.
  sig(
    'Microsoft Office link check',
    'mail_security',
    /\bmicrosoft office (?:existence|protocol) discovery\b/i,
    'Microsoft Office Existence Discovery',
  ),
  sig(
    'Microsoft WebDAV',
    'mail_security',
    /\bmicrosoft-webdav-miniredir\//i,
    'Microsoft-WebDAV-MiniRedir/10.0.19045',
  ),
  sig('Microsoft Safe Links', 'mail_security', /\bsafe ?links?\b/i, 'Mozilla/5.0 (compatible; SafeLinks)'),
  sig('Proofpoint', 'mail_security', /\bproofpoint\b/i, 'Mozilla/5.0 (compatible; Proofpoint URL Defense)'),
  sig('Mimecast', 'mail_security', /\bmimecast\b/i, 'Mimecast-URL-Protect/1.0'),
  sig('Barracuda', 'mail_security', /\bbarracuda\b/i, 'Barracuda Sentinel (EE)'),
  sig('Cisco IronPort', 'mail_security', /\bironport\b/i, 'Cisco IronPort URL Filtering'),
  sig('Forcepoint', 'mail_security', /\bforcepoint\b/i, 'Forcepoint Email Security'),
  sig('Trend Micro', 'mail_security', /\btrend ?micro\b/i, 'TrendMicro Cloud App Security'),
  sig('Sophos', 'mail_security', /\bsophos\b/i, 'Sophos Email Time-of-Click'),
  sig('Symantec', 'mail_security', /\b(?:symantec|messagelabs)\b/i, 'Symantec Click-time URL Protection'),
  sig('Trellix (FireEye)', 'mail_security', /\b(?:fireeye|trellix)\b/i, 'FireEye ETP'),
  sig('Fortinet', 'mail_security', /\bforti(?:mail|guard|net)\b/i, 'FortiMail URL Click Protection'),
  sig('Check Point', 'mail_security', /\bcheck ?point\b/i, 'Check Point Harmony Email'),
  sig('SonicWall', 'mail_security', /\bsonicwall\b/i, 'SonicWall Capture'),
  sig('Hornetsecurity', 'mail_security', /\bhornetsecurity\b/i, 'Hornetsecurity URL Scan'),
  sig(
    'Google image proxy',
    'image_proxy',
    /\bgoogleimageproxy\b/i,
    'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
  ),
  sig(
    'Yahoo Mail proxy',
    'image_proxy',
    /\byahoomailproxy\b/i,
    'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
  ),
  // Apple Mail Privacy Protection loads every image on delivery with this bare user agent.
  sig('Apple Mail Privacy Protection', 'image_proxy', /^mozilla\/5\.0$/i, 'Mozilla/5.0'),
  sig(
    'Slack image proxy',
    'image_proxy',
    /\bslack-imgproxy\b/i,
    'Slack-ImgProxy (+https://api.slack.com/robots)',
  ),
  sig('Slack', 'link_preview', /\bslackbot\b/i, 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'),
  sig(
    'Microsoft Teams',
    'link_preview',
    /\bmicrosoftpreview\//i,
    'Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/53.0.2785.143 Safari/537.36 MicrosoftPreview/2.0 +https://aka.ms/MicrosoftPreview',
  ),
  sig(
    'Skype',
    'link_preview',
    /\bskypeuripreview\b/i,
    'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
  ),
  sig('Bing preview', 'link_preview', /\bbingpreview\//i, 'Mozilla/5.0 (Windows NT 10.0) BingPreview/1.0b'),
  // Signal's previews announce themselves as WhatsApp too; their in-app browsers do not.
  sig('WhatsApp', 'link_preview', /^whatsapp\//i, 'WhatsApp/2.23.20.0 A'),
  sig(
    'Facebook / iMessage',
    'link_preview',
    /\b(?:facebookexternalhit|facebot)\b/i,
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  ),
  sig('Telegram', 'link_preview', /\btelegrambot\b/i, 'TelegramBot (like TwitterBot)'),
  sig(
    'Discord',
    'link_preview',
    /\bdiscordbot\//i,
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  ),
  sig(
    'LinkedIn',
    'link_preview',
    /\blinkedinbot\//i,
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  ),
  sig('X (Twitter)', 'link_preview', /\btwitterbot\//i, 'Twitterbot/1.0'),
];

// One test for the common case (a browser): the entries are only walked once something matched.
const ANY_SIGNATURE = new RegExp(USER_AGENT_SIGNATURES.map((s) => `(?:${s.pattern.source})`).join('|'), 'i');

/** The first of our signatures the user agent matches, or null. */
export function matchUserAgentSignature(userAgent: string): UserAgentSignature | null {
  if (!ANY_SIGNATURE.test(userAgent)) return null;
  return USER_AGENT_SIGNATURES.find((s) => s.pattern.test(userAgent)) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Scanner networks

/** An account's scanner network, parsed once; matching needs no further parsing. */
export interface ScannerNetwork {
  /** Normalised for display and storage: `203.0.113.0/24`, `2001:db8::/32`. */
  readonly cidr: string;
  readonly version: 4 | 6;
  /** The network address and its mask as unsigned 32-bit words (1 for IPv4, 4 for IPv6). */
  readonly words: readonly number[];
  readonly masks: readonly number[];
}

export const MAX_SCANNER_NETWORKS = 500;
/** Wider networks would count most of the internet (and the account's own people) as scanners. */
export const WIDEST_SCANNER_PREFIX = { 4: 8, 6: 16 } as const;
const LINE_MAX = 100;
const CIDR_EXAMPLE = 'such as 203.0.113.0/24 or 2001:db8::/32';

/**
 * A client address as the socket gives it, IPv4-mapped IPv6 read as IPv4; null when it is none.
 * Only the dotted four-part IPv4 form counts (ipaddr.js would also read `10.1` or `0x0a.0.0.1`).
 */
function parseIp(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (typeof address !== 'string' || address.length === 0 || address.length > 64) return null;
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipaddr.IPv4.parse(address);
  if (!ipaddr.IPv6.isValid(address)) return null;
  const ip = ipaddr.IPv6.parse(address);
  return ip.isIPv4MappedAddress() ? ip.toIPv4Address() : ip;
}

/** A client address as 32-bit words (1 for IPv4, 4 for IPv6); null when it is no address. */
export function parseClientAddress(address: string): { version: 4 | 6; words: number[] } | null {
  const ip = parseIp(address);
  if (ip === null) return null;
  const bytes = ip.toByteArray();
  return ip.kind() === 'ipv4'
    ? { version: 4, words: [wordOf(bytes, 0)] }
    : { version: 6, words: [0, 4, 8, 12].map((i) => wordOf(bytes, i)) };
}

/** One spelling per client (IPv4-mapped IPv6 as IPv4, IPv6 in RFC 5952 form), for counting per address. */
export function normalizeClientAddress(address: string): string {
  const ip = parseIp(address);
  if (ip === null) return String(address);
  return ip.kind() === 'ipv6' ? (ip as ipaddr.IPv6).toRFC5952String() : ip.toString();
}

/** The first of the networks that holds the address, or null. */
export function findScannerNetwork(
  address: string,
  networks: readonly ScannerNetwork[],
): ScannerNetwork | null {
  if (networks.length === 0) return null;
  const client = parseClientAddress(address);
  if (client === null) return null;
  for (const network of networks) {
    if (network.version !== client.version) continue;
    let inside = true;
    for (let i = 0; i < network.words.length && inside; i++) {
      inside = (client.words[i]! & network.masks[i]!) >>> 0 === network.words[i];
    }
    if (inside) return network;
  }
  return null;
}

export interface ScannerNetworkError {
  /** The offending entry's position in the input (0-based), or null for the list as a whole. */
  index: number | null;
  message: string;
}

/**
 * Reads an administrator's list of scanner networks, one CIDR (or single address) a line.
 * Empty lines and `#` comments are ignored, duplicates dropped; every other problem is an error
 * naming its line, so the whole list can be corrected at once.
 */
export function parseScannerNetworks(lines: readonly string[]): {
  networks: ScannerNetwork[];
  errors: ScannerNetworkError[];
} {
  const networks = new Map<string, ScannerNetwork>();
  const errors: ScannerNetworkError[] = [];
  lines.forEach((raw, index) => {
    const line = typeof raw === 'string' ? raw.trim() : '';
    if (line === '' || line.startsWith('#')) return;
    const parsed = parseNetwork(line);
    if (typeof parsed === 'string') errors.push({ index, message: parsed });
    else networks.set(parsed.cidr, parsed);
  });
  if (networks.size > MAX_SCANNER_NETWORKS) {
    errors.push({ index: null, message: `must have at most ${MAX_SCANNER_NETWORKS} networks` });
  }
  return { networks: [...networks.values()], errors };
}

/** parseScannerNetworks for a request field: errors go to `field[i]`, or to `field` for the list. */
export function checkScannerNetworks(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
): ScannerNetwork[] {
  if (!Array.isArray(value) || value.some((line) => typeof line !== 'string')) {
    errors.add(field, 'must be a list of strings');
    return [];
  }
  const parsed = parseScannerNetworks(value);
  for (const e of parsed.errors) errors.add(e.index === null ? field : `${field}[${e.index}]`, e.message);
  return parsed.networks;
}

/** One network, or the message saying what is wrong with it. */
function parseNetwork(line: string): ScannerNetwork | string {
  if (line.length > LINE_MAX) return `must be at most ${LINE_MAX} characters`;
  const slash = line.indexOf('/');
  const addressText = slash === -1 ? line : line.slice(0, slash);
  const prefixText = slash === -1 ? null : line.slice(slash + 1);
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(addressText)) ip = ipaddr.IPv4.parse(addressText);
  else if (ipaddr.IPv6.isValid(addressText) && !addressText.includes('%'))
    ip = ipaddr.IPv6.parse(addressText);
  else return `must be an IP address or a network in CIDR notation, ${CIDR_EXAMPLE}`;

  let bits = ip.kind() === 'ipv4' ? 32 : 128;
  if (prefixText !== null && !/^\d{1,3}$/.test(prefixText)) {
    return `must end in a prefix length from 0 to ${bits} after the slash, ${CIDR_EXAMPLE}`;
  }
  let prefix = prefixText === null ? bits : Number(prefixText);
  if (prefix > bits)
    return `must have a prefix length of at most ${bits} for an IPv${bits === 32 ? 4 : 6} network`;
  // ::ffff:10.0.0.0/104 is 10.0.0.0/8: clients are matched as IPv4 once unmapped.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
    bits = 32;
  }
  const version = bits === 32 ? 4 : 6;
  if (prefix < WIDEST_SCANNER_PREFIX[version]) {
    return `must not be wider than /${WIDEST_SCANNER_PREFIX[version]} for IPv${version}: it would count most people as scanners`;
  }
  const bytes = ip.toByteArray();
  const words = version === 4 ? [wordOf(bytes, 0)] : [0, 4, 8, 12].map((i) => wordOf(bytes, i));
  const masks = words.map((_, i) => maskWord(prefix - 32 * i));
  const network = words.map((w, i) => (w & masks[i]!) >>> 0);
  const networkText = `${addressOf(version, network)}/${prefix}`;
  if (network.some((w, i) => w !== words[i]))
    return `must start at its network's first address: ${networkText}`;
  return { cidr: networkText, version, words: network, masks };
}

function wordOf(bytes: readonly number[], at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

/** The mask of one 32-bit word when `bits` of the prefix fall in it (≤0 none, ≥32 all). */
function maskWord(bits: number): number {
  if (bits <= 0) return 0;
  if (bits >= 32) return 0xffffffff;
  return (0xffffffff << (32 - bits)) >>> 0;
}

function addressOf(version: 4 | 6, words: readonly number[]): string {
  const bytes = words.flatMap((w) => [w >>> 24, (w >>> 16) & 255, (w >>> 8) & 255, w & 255]);
  const ip = ipaddr.fromByteArray(bytes);
  return version === 6 ? (ip as ipaddr.IPv6).toRFC5952String() : ip.toString();
}
