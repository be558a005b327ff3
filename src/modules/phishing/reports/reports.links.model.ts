/**
 * The links of a reported message that lead to a simulation: `<phish URL>/v/<token>` (the
 * landing page) or `<phish URL>/t/<token>.png` (the open-tracking image), also when a mail
 * security product has rewritten the link around its own redirector. Pure string work: nothing
 * is fetched, nothing is followed.
 *
 * The text is anyone's (a message mailed to an employee, then reported), so every step takes
 * time linear in it: each regular expression here is anchored or has no two quantifiers that
 * can share characters, loops read each character a bounded number of times, and a link is
 * read only up to MAX_LINK_LENGTH (see reports.links.test.ts, "in linear time").
 */

import { TOKEN_CHARACTERS } from '../simulation/simulation.links.model.js';

export type LinkSource = 'link' | 'image';

/** A configured phish URL, in the parts a link is compared on. */
export interface PhishBase {
  protocol: string;
  /** Host name (lower case, IDN as punycode) and port when it is not the scheme's default. */
  host: string;
  /** The base path, ending with `/`. */
  path: string;
}

// What follows the base path: `v/<token>` (an optional trailing slash) or `t/<token>.png`.
const LANDING_PATH = new RegExp(`^v/(${TOKEN_CHARACTERS})/?$`);
const IMAGE_PATH = new RegExp(`^t/(${TOKEN_CHARACTERS})\\.png$`);

// Rewrites wrap rewrites (Safe Links around Proofpoint); a few levels is all real mail has.
const MAX_UNWRAP = 5;
// A body is bounded by the message's size; this bounds the work per body on link-heavy HTML.
const MAX_CANDIDATES_PER_BODY = 5_000;
/**
 * The longest link read. A simulation's link is under 100 characters and each rewrite adds a
 * few hundred (Safe Links around Proofpoint stays under 2 KiB); a longer "link" is no link of
 * ours, and skipping it keeps the work per link bounded.
 */
export const MAX_LINK_LENGTH = 16 * 1024;
// Anything that looks like an absolute http(s) URL, up to a character no URL holds unescaped.
// Linear: a failed attempt costs the few characters of `https://`, a match is consumed whole.
const URL_CANDIDATE = /https?:\/\/[^\s"'<>`\\]+/gi;
// Sentence punctuation after a link in text ("see https://…/v/abc."), never a token's end.
// Stripped by a loop from the end: the pattern /[.,;:!?)\]}'"*]+$/ did it in quadratic time,
// retrying from every character of a long run of dots (30,000 dots: seconds).
const TRAILING_PUNCTUATION = new Set('.,;:!?)]}\'"*');
// Only candidates naming a phish host or a known redirector are parsed (the rest are skipped cheaply).
const REDIRECTOR_MARKERS = [
  'safelinks.protection.',
  'urldefense.',
  'google.',
  'linkprotect.cudasvc.com',
  'secure-web.cisco.com',
  'protection.sophos.com',
];

/** Parses the configured phish URLs; a value that is no absolute http(s) URL is a programming error. */
export function phishBases(phishUrls: string[]): PhishBase[] {
  return phishUrls.map((value) => {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new TypeError(`phish URL must be http or https: ${value}`);
    }
    const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    return { protocol: url.protocol, host: url.host, path };
  });
}

/** The token a URL on one of the phish URLs carries, with what it is (landing link or image). */
export function tokenOfPhishUrl(
  candidate: string,
  bases: PhishBase[],
): { token: string; source: LinkSource } | null {
  const url = parseUrl(candidate);
  if (!url) return null;
  for (const base of bases) {
    // URL lower-cases the host and drops a default port; the path stays case-sensitive.
    if (url.protocol !== base.protocol || url.host !== base.host || !url.pathname.startsWith(base.path)) {
      continue;
    }
    const rest = url.pathname.slice(base.path.length);
    const landing = LANDING_PATH.exec(rest);
    if (landing?.[1]) return { token: landing[1], source: 'link' };
    const image = IMAGE_PATH.exec(rest);
    if (image?.[1]) return { token: image[1], source: 'image' };
  }
  return null;
}

/** Every simulation token linked from a body (HTML or text), in the order the links appear. */
export function tokensInBody(
  body: string,
  kind: 'html' | 'text',
  bases: PhishBase[],
): Array<{ token: string; source: LinkSource }> {
  const text = kind === 'html' ? decodeHtmlEntities(body) : body;
  // Hosts are compared in punycode: a link written with a Unicode host is only found by parsing it.
  const prefilter = bases.every((b) => !b.host.includes('xn--'));
  const markers = [...REDIRECTOR_MARKERS, ...bases.map((b) => b.host.replace(/:\d+$/, ''))];
  const found: Array<{ token: string; source: LinkSource }> = [];
  let examined = 0;
  for (const match of text.matchAll(URL_CANDIDATE)) {
    const candidate = withoutTrailingPunctuation(match[0]);
    if (candidate.length > MAX_LINK_LENGTH) continue;
    const lower = candidate.toLowerCase();
    if (prefilter && !markers.some((marker) => lower.includes(marker))) continue;
    if (++examined > MAX_CANDIDATES_PER_BODY) break;
    const hit = tokenOfLink(candidate, bases);
    if (hit) found.push(hit);
  }
  return found;
}

/**
 * Every absolute http(s) URL of a body, in order, as written (HTML entities decoded, sentence
 * punctuation after it dropped). Linear, as tokensInBody; the caller bounds how many it takes.
 */
export function* linkCandidates(body: string, kind: 'html' | 'text'): Generator<string> {
  const text = kind === 'html' ? decodeHtmlEntities(body) : body;
  for (const match of text.matchAll(URL_CANDIDATE)) yield withoutTrailingPunctuation(match[0]);
}

/** The link without the sentence punctuation that follows it; one pass from the end. */
export function withoutTrailingPunctuation(candidate: string): string {
  let end = candidate.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(candidate[end - 1] as string)) end--;
  return candidate.slice(0, end);
}

/** The token behind a link, undoing the rewrites of mail security products, outermost first. */
export function tokenOfLink(link: string, bases: PhishBase[]): { token: string; source: LinkSource } | null {
  let current = link;
  for (let level = 0; level <= MAX_UNWRAP; level++) {
    const hit = tokenOfPhishUrl(current, bases);
    if (hit) return hit;
    const inner = unwrapRewrittenUrl(current);
    // Each level's URL is no longer than the link it came out of; the length check is a guard.
    if (inner === null || inner === current || inner.length > MAX_LINK_LENGTH) return null;
    current = inner;
  }
  return null;
}

/**
 * The URL a security product's redirector link stands for, one level down, or null when the
 * link is no redirector whose original URL is in the link. Mimecast (`protect-*.mimecast.com/s/…`)
 * and other products that keep only an identifier cannot be undone.
 */
export function unwrapRewrittenUrl(link: string): string | null {
  const v3 = proofpointV3Parts(link);
  if (v3) return decodeProofpointV3(v3.encodedUrl, v3.replacedBase64);
  const url = parseUrl(link);
  if (!url) return null;
  const host = url.hostname;
  const param = (name: string) => url.searchParams.get(name);
  // Microsoft Defender for Office 365 Safe Links (commercial and US government clouds).
  if (SAFE_LINKS_HOSTS.some((suffix) => host.endsWith(suffix))) return param('url');
  if (/^urldefense(\.proofpoint)?\.(com|us)$/.test(host)) {
    if (url.pathname === '/v1/url') return param('u');
    if (url.pathname === '/v2/url') {
      // v2 escapes the percent-encoded URL once more: `-` stands for `%`, `_` for `/`.
      const raw = /[?&]u=([^&]*)/.exec(url.search)?.[1];
      return raw === undefined ? null : percentDecode(raw.replace(/-/g, '%').replace(/_/g, '/'));
    }
    return null;
  }
  if (/^(www\.)?google\.[a-z]{2,3}(\.[a-z]{2})?$/.test(host) && url.pathname === '/url') {
    return param('q') ?? param('url');
  }
  // Barracuda Link Protection keeps the original in `a`.
  if (host === 'linkprotect.cudasvc.com' && url.pathname === '/url') return param('a');
  // Cisco Secure Email: /<opaque signature>/<percent-encoded original URL>.
  if (host === 'secure-web.cisco.com') {
    const inner = url.pathname.split('/').slice(2).join('/');
    return inner ? percentDecode(inner) : null;
  }
  // Sophos Email: the original URL in base64 in `u`.
  if (host.endsWith('.protection.sophos.com')) {
    // A `+` of the base64 reads as a space in a query string.
    const u = param('u')?.replace(/ /g, '+');
    return u ? Buffer.from(u, 'base64').toString('utf8') : null;
  }
  return null;
}

const SAFE_LINKS_HOSTS = ['.safelinks.protection.outlook.com', '.safelinks.protection.office365.us'];

// Proofpoint URL Defense v3: `https://urldefense.com/v3/__<URL>__;<base64url of the characters
// replaced by * in URL>!!<…>$`.
const PROOFPOINT_V3_PREFIX = /^https:\/\/urldefense(?:\.proofpoint)?\.(?:com|us)\/v3\/__/i;

/**
 * The two parts of a v3 link: the URL up to the first `__;` that is followed by base64url and
 * `!`. Linear: the base64url read after one `__;` stops at the next `;`, so no character is
 * read twice (the pattern `__(.+?)__;([A-Za-z0-9_-]*)!` said the same, less evidently so).
 */
function proofpointV3Parts(link: string): { encodedUrl: string; replacedBase64: string } | null {
  const prefix = PROOFPOINT_V3_PREFIX.exec(link);
  if (!prefix) return null;
  const start = prefix[0].length;
  for (let end = link.indexOf('__;', start + 1); end !== -1; end = link.indexOf('__;', end + 1)) {
    let i = end + 3;
    while (i < link.length && isBase64UrlCharacter(link.charCodeAt(i))) i++;
    if (link[i] === '!')
      return { encodedUrl: link.slice(start, end), replacedBase64: link.slice(end + 3, i) };
  }
  return null;
}

function isBase64UrlCharacter(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || // 0-9
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    code === 0x2d || // -
    code === 0x5f // _
  );
}
const V3_RUN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Undoes v3's substitutions as Proofpoint's published decoder does: `*` takes the next
 * replaced character, `**X` the next run of 2 + (X's place in the alphabet) characters.
 */
function decodeProofpointV3(encodedUrl: string, replacedBase64: string): string | null {
  // v3 may write `https:/host`; the decoder restores the second slash.
  const withSlashes = encodedUrl.replace(/^([a-z0-9+.-]+:\/)([^/])/i, '$1/$2');
  const url = percentDecode(withSlashes);
  if (url === null) return null;
  const replaced = Array.from(Buffer.from(replacedBase64, 'base64url').toString('utf8'));
  let next = 0;
  let failed = false;
  const decoded = url.replace(/\*(\*.)?/gu, (token: string, run: string | undefined) => {
    const length = run === undefined ? 1 : V3_RUN_ALPHABET.indexOf(run.slice(1)) + 2;
    if (length < 2 && run !== undefined) failed = true;
    if (next + length > replaced.length) failed = true;
    const part = replaced.slice(next, next + length).join('');
    next += length;
    return failed ? token : part;
  });
  return failed ? null : decoded;
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

function percentDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };

/** The entities an href may hold (`&amp;` between query parameters above all), decoded. */
function decodeHtmlEntities(html: string): string {
  return html.replace(
    /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|quot|apos|lt|gt);/g,
    (entity, name: string) => {
      if (name[0] !== '#') return NAMED_ENTITIES[name] ?? entity;
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    },
  );
}
