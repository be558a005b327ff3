import { randomBytes } from 'node:crypto';

/**
 * Delivery that lands (../shared/spec/reporting.md): the allow-listing sheet's values and the
 * rules of a test send. Pure.
 *
 * A test send's token is 30 random bytes in base64url, 40 characters: a recipient's is 32
 * (simulation.links.model.ts), so the tracking routes tell the two apart by the length alone and
 * read only the table the token can be in.
 */

export const TEST_TOKEN_BYTES = 30;
const TEST_TOKEN_PATTERN = /^[A-Za-z0-9_-]{40}$/;

export function isTestToken(value: unknown): value is string {
  return typeof value === 'string' && TEST_TOKEN_PATTERN.test(value);
}

export function newTestToken(): string {
  return randomBytes(TEST_TOKEN_BYTES).toString('base64url');
}

/** Test sends an account may make per hour. */
export const TEST_SENDS_PER_HOUR = 10;
const HOUR_MS = 3_600_000;
/** Hits recorded per test send at most: a forwarded link cannot fill the table. */
export const TEST_HITS_MAX = 100;
/** How long a test send's link and image record hits; afterwards they answer as an unknown token's. */
export const TEST_TRACKED_MS = 7 * 86_400_000;
/** How long the page watches a test send for hits. */
export const TEST_WATCH_MS = 15 * 60_000;
/** Without any hit this long after delivery, the message probably did not arrive. */
export const TEST_SILENCE_MS = 5 * 60_000;

/** Seconds until the oldest of the last hour's sends leaves the hour, or null when one more may go. */
export function testSendWait(recentCreatedAt: readonly number[], now: number): number | null {
  if (recentCreatedAt.length < TEST_SENDS_PER_HOUR) return null;
  const oldest = Math.min(...recentCreatedAt);
  return Math.max(1, Math.ceil((oldest + HOUR_MS - now) / 1000));
}

export type TestVerdict = 'queued' | 'failed' | 'waiting' | 'no_hit' | 'scanner_only' | 'human';

/** What the hits of a test send say so far. */
export function testVerdict(
  send: { status: string; delivered_at: number | null; created_at: number },
  hits: readonly { classification: string }[],
  now: number,
): TestVerdict {
  if (hits.some((h) => h.classification === 'human')) return 'human';
  if (hits.length > 0) return 'scanner_only';
  if (send.status === 'failed') return 'failed';
  if (send.status !== 'sent') return 'queued';
  const since = send.delivered_at ?? send.created_at;
  return now - since >= TEST_SILENCE_MS ? 'no_hit' : 'waiting';
}

/** Where one sending domain comes from. */
export interface DomainSource {
  domain: string;
  source: string;
}

/**
 * The domains simulations are sent from, each once with every place it comes from: the
 * account's default (its own sender domain, else PHISH_URL's host), and the effective domain of
 * each campaign that may still send (its own, else the account's, else PHISH_URL's host).
 */
export function sendingDomains(
  accountDomain: string | null,
  phishHost: string,
  campaigns: readonly { name: string; status: string; sender_domain: string | null }[],
): { domain: string; sources: string[] }[] {
  const found: DomainSource[] = [
    accountDomain !== null
      ? { domain: accountDomain, source: 'the account’s default sender domain (Phishing settings)' }
      : { domain: phishHost, source: 'the host of PHISH_URL, used when no sender domain is set' },
  ];
  for (const c of campaigns) {
    const domain = c.sender_domain ?? accountDomain ?? phishHost;
    found.push({ domain, source: `the ${c.status} campaign “${c.name}”` });
  }
  const byDomain = new Map<string, string[]>();
  for (const { domain, source } of found) {
    const sources = byDomain.get(domain) ?? [];
    byDomain.set(domain, sources);
    if (sources.length < 20 && !sources.includes(source)) sources.push(source);
  }
  return [...byDomain].map(([domain, sources]) => ({ domain, sources }));
}

/** The host of an SMTP URL, without credentials or port; null when unset or unreadable. */
export function smtpHostOf(smtpUrl: string | undefined): string | null {
  if (!smtpUrl) return null;
  try {
    return new URL(smtpUrl).hostname.replace(/^\[|\]$/g, '') || null;
  } catch {
    return null;
  }
}
