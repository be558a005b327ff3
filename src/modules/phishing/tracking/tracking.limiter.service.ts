import { LRUCache } from 'lru-cache';

/**
 * The tracking routes' rate limit per client address and process (docs/phishing-plan.md,
 * "Tracking limits"). Two budgets a minute (a fixed window from the address's first request):
 *
 * - requests for known tokens (`perMinute`, default 600): what stops a scanner's burst. Past it a
 *   request is refused, except the first click, form post and teachable page of each token from
 *   each address (per process): a person behind a busy corporate address always gets their first
 *   click recorded, whether or not their mail client loaded the tracking image first (an open, a
 *   HEAD or a prefetch is never exempt, and what another address did uses up nothing).
 * - requests for unknown or malformed tokens (`unknownPerMinute`, default 30): each well-formed one
 *   costs a read, so an address rotating made-up tokens is refused past it *before* any read, for
 *   any token this process has not seen known.
 *
 * Every map is an LRU of bounded size: an attacker rotating addresses evicts the least recent
 * ones (an address needs one budget's worth of requests to be refused anyway), and only tokens
 * found known take an exemption entry, so made-up tokens cannot fill it.
 */

/** What a request to a tracking route is, for the limit (`probe`: a HEAD or prefetch of the link). */
export type TrackedRoute = 'open' | 'probe' | 'click' | 'submit' | 'interaction' | 'learn';

/** Routes whose first request per known token is never refused: a person's click and what follows it. */
const EXEMPT_ONCE: ReadonlySet<TrackedRoute> = new Set(['click', 'submit', 'learn']);

export const TRACKING_REQUESTS_PER_MINUTE = 600;
export const TRACKING_UNKNOWN_PER_MINUTE = 30;

const WINDOW_MS = 60_000;

interface Window {
  start: number;
  count: number;
}

export interface TrackingLimits {
  /** Requests for known tokens per address and minute. */
  perMinute?: number;
  /** Requests for unknown or malformed tokens per address and minute. */
  unknownPerMinute?: number;
  /** Addresses remembered per budget, and first requests remembered (LRU). */
  maxAddresses?: number;
  maxExemptions?: number;
}

export class TrackingLimiter {
  readonly #perMinute: number;
  readonly #unknownPerMinute: number;
  readonly #known: LRUCache<string, Window>;
  readonly #unknown: LRUCache<string, Window>;
  /** `<route> <token> <address>` of known tokens whose first request of that route from that address this process let through. */
  readonly #exempted: LRUCache<string, true>;

  constructor(limits: TrackingLimits = {}) {
    this.#perMinute = limits.perMinute ?? TRACKING_REQUESTS_PER_MINUTE;
    this.#unknownPerMinute = limits.unknownPerMinute ?? TRACKING_UNKNOWN_PER_MINUTE;
    const maxAddresses = limits.maxAddresses ?? 100_000;
    this.#known = new LRUCache({ max: maxAddresses });
    this.#unknown = new LRUCache({ max: maxAddresses });
    this.#exempted = new LRUCache({ max: limits.maxExemptions ?? 200_000 });
  }

  /**
   * Before a token this process does not know is read: the seconds to wait when the address has
   * spent its budget for unknown tokens, or (for a route with no first-request exemption) its
   * budget for known ones, since the answer past either is a refusal whatever the token is; else null.
   */
  beforeRead(address: string, route: TrackedRoute, now = Date.now()): number | null {
    const unknown = spent(this.#unknown.get(address), this.#unknownPerMinute, now);
    if (unknown !== null) return unknown;
    return EXEMPT_ONCE.has(route) ? null : spent(this.#known.get(address), this.#perMinute, now);
  }

  /** A token that is no recipient's (or not even well-formed): counted; the seconds to wait past the budget, else null. */
  unknown(address: string, now = Date.now()): number | null {
    return count(this.#unknown, address, this.#unknownPerMinute, now);
  }

  /** A known token's request: counted; refused past the budget unless it is the token's first of an exempt route from this address. */
  known(address: string, token: string, route: TrackedRoute, now = Date.now()): number | null {
    const wait = count(this.#known, address, this.#perMinute, now);
    if (wait === null || !EXEMPT_ONCE.has(route)) return wait;
    const key = `${route} ${token} ${address}`;
    if (this.#exempted.has(key)) return wait;
    this.#exempted.set(key, true);
    return null;
  }

  /** How many entries the maps hold (for tests and metrics). */
  get size(): { addresses: number; exemptions: number } {
    return { addresses: this.#known.size + this.#unknown.size, exemptions: this.#exempted.size };
  }
}

/** Counts one request of `address` in its window; the seconds until it may try again when past `limit`. */
function count(
  windows: LRUCache<string, Window>,
  address: string,
  limit: number,
  now: number,
): number | null {
  let window = windows.get(address);
  if (window === undefined || now - window.start >= WINDOW_MS) {
    window = { start: now, count: 0 };
    windows.set(address, window);
  }
  window.count++;
  return window.count <= limit ? null : retryAfter(window, now);
}

/** The seconds to wait when the window is already past `limit` (nothing counted), else null. */
function spent(window: Window | undefined, limit: number, now: number): number | null {
  if (window === undefined || now - window.start >= WINDOW_MS || window.count < limit) return null;
  return retryAfter(window, now);
}

const retryAfter = (window: Window, now: number) =>
  Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
