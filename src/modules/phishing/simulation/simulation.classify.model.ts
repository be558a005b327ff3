import { isbotMatch } from 'isbot';
import {
  findScannerNetwork,
  matchUserAgentSignature,
  normalizeClientAddress,
  type ScannerNetwork,
  type UserAgentCategory,
} from './simulation.scanners.model.js';

/**
 * Tells a person's tracking hit from a machine's (mail security scanners, link checkers, image
 * proxies, prefetchers), so that figures count people only: GoPhish counts every scanner's GET
 * as a click. Every raw event is kept with its classification and reason; nothing here blocks a
 * request. Pure, synchronous and cheap: it runs on every tracking hit.
 */

export type HitKind = 'open' | 'click' | 'submit' | 'interaction';

/** Header values as Node gives them (lower-case names; a repeated header may be a list). */
export type HitHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface TrackingHit {
  kind: HitKind;
  /** When it arrived, epoch ms. */
  at: number;
  method: string;
  headers: HitHeaders;
  clientAddress: string;
}

export interface ClassificationContext {
  /** When the SMTP server accepted the message, epoch ms; null while unknown. */
  deliveredAt: number | null;
  settings: { automatedWindowSeconds: number; scannerNetworks: readonly ScannerNetwork[] };
  /** Distinct recipients whose links this client address touched within ADDRESS_BURST.windowSeconds, this one included. */
  recentRecipientsFromAddress: number;
  /** The recipient already proved to be a person (a human submit or page interaction). */
  earlierHumanInteraction?: boolean;
}

/** Evidence carried by the request itself: it holds for every kind of hit, forms included. */
export type RequestReason =
  | 'head_request'
  | 'unexpected_method'
  | 'prefetch'
  | 'empty_user_agent'
  | 'http_library_user_agent'
  | 'known_scanner_user_agent'
  | 'image_proxy'
  | 'link_preview'
  | 'scanner_network';
/** Evidence from timing alone: a later interaction by the recipient overrides it. */
export type TimingReason = 'within_delivery_window' | 'address_burst';
export type HumanReason = 'form_post' | 'page_interaction' | 'after_human_interaction' | 'browser';
export type ClassificationReason = RequestReason | TimingReason | HumanReason;

export interface HitClassification {
  classification: 'human' | 'automated';
  reason: ClassificationReason;
  /** What matched (a product, a network, a header), for the administrator; at most 200 characters. */
  detail?: string;
}

export const DEFAULT_AUTOMATED_WINDOW_SECONDS = 60;
/** Bounds of the account's setting (0 turns the delivery-window rule off). */
export const AUTOMATED_WINDOW_LIMITS = { min: 0, max: 3600 } as const;
/**
 * One address touching this many recipients' links within this many seconds is a scanner. Kept
 * short and high enough that people behind one corporate address (who click over hours, not
 * all within seconds) are not taken for one.
 */
export const ADDRESS_BURST = { recipients: 5, windowSeconds: 10 } as const;

/** What each reason means, for the administrator's event timeline and docs/internals/scanners.md. */
export const CLASSIFICATION_REASONS: Record<ClassificationReason, string> = {
  head_request: 'A HEAD request: link checkers ask whether a page exists, browsers never do.',
  unexpected_method: 'A method other than GET or POST, which no browser uses for a link, image or form.',
  prefetch: 'A prefetch or preview the browser or mail client made before anyone chose the link.',
  empty_user_agent: 'No user agent: every browser sends one.',
  http_library_user_agent: 'The user agent of an HTTP library or command-line tool, not a browser.',
  known_scanner_user_agent: 'The user agent of a mail security product, link checker or bot.',
  image_proxy: 'An image proxy that loads images on delivery or for the mail service, not the person.',
  link_preview: 'A chat or social network building a preview of the link.',
  scanner_network: "From one of the account's scanner networks.",
  within_delivery_window: 'Within seconds of delivery, when scanners check mail and before people read it.',
  address_burst: "One address touching many recipients' links within seconds.",
  form_post: 'The landing form was submitted: scanners do not fill in forms.',
  page_interaction: 'A button on the landing page was pressed: scanners do not press buttons.',
  after_human_interaction: 'The recipient has already interacted with the landing page as a person.',
  browser: 'A browser, with nothing suggesting a machine.',
};

const DETAIL_MAX = 200;
const USER_AGENT_MAX = 1024; // bounds the matching work; real user agents are far shorter
const CATEGORY_REASON: Record<UserAgentCategory, RequestReason> = {
  http_library: 'http_library_user_agent',
  mail_security: 'known_scanner_user_agent',
  image_proxy: 'image_proxy',
  link_preview: 'link_preview',
};
const PREFETCH_TOKENS = new Set(['prefetch', 'prerender', 'preview']);

const automated = (reason: RequestReason | TimingReason, detail?: string): HitClassification =>
  detail === undefined
    ? { classification: 'automated', reason }
    : { classification: 'automated', reason, detail: detail.slice(0, DETAIL_MAX) };
const human = (reason: HumanReason): HitClassification => ({ classification: 'human', reason });

/**
 * Classifies one tracking hit. Evidence the request itself carries comes first and holds for
 * every kind of hit: a form POST from curl or from a scanner network is a machine's, whatever
 * it posts (so a script cannot fail someone, and a sandbox that fills in forms does not either).
 * A submit or page interaction is then a person. Timing (the delivery window, a burst from one
 * address) decides only opens and clicks, and yields to a recipient already proven human.
 */
export function classifyHit(hit: TrackingHit, context: ClassificationContext): HitClassification {
  const byRequest = classifyRequest(hit, context.settings.scannerNetworks);
  if (byRequest !== null) return byRequest;

  // Scanners follow links and load images; they do not fill in forms or press buttons.
  if (hit.kind === 'submit') return human('form_post');
  if (hit.kind === 'interaction') return human('page_interaction');
  // A person who already interacted is a person, however soon or crowded their next click.
  if (context.earlierHumanInteraction === true) return human('after_human_interaction');

  // Scanners check mail within seconds of delivery, before anyone reads it.
  const windowMs = context.settings.automatedWindowSeconds * 1000;
  if (context.deliveredAt !== null && windowMs > 0) {
    const elapsed = hit.at - context.deliveredAt;
    // Before delivery was recorded can only be the scanner racing the delivery's own write.
    if (elapsed < windowMs) {
      return automated(
        'within_delivery_window',
        `${Math.max(0, Math.floor(elapsed / 1000))} s after delivery`,
      );
    }
  }
  // One machine walking through many people's links.
  if (context.recentRecipientsFromAddress >= ADDRESS_BURST.recipients) {
    return automated(
      'address_burst',
      `${context.recentRecipientsFromAddress} recipients within ${ADDRESS_BURST.windowSeconds} s`,
    );
  }
  return human('browser');
}

/** The evidence a request carries by itself (method, headers, address), or null when none. */
function classifyRequest(hit: TrackingHit, networks: readonly ScannerNetwork[]): HitClassification | null {
  const method = typeof hit.method === 'string' ? hit.method.toUpperCase() : '';
  // Link checkers ask whether a page exists; Fastify answers HEAD on every GET route.
  if (method === 'HEAD') return automated('head_request');
  if (method !== 'GET' && method !== 'POST') return automated('unexpected_method', method);

  const prefetch = prefetchHeader(hit.headers);
  if (prefetch !== null) return automated('prefetch', prefetch);

  const userAgent = headerText(hit.headers, 'user-agent').slice(0, USER_AGENT_MAX).trim();
  // Every browser sends a user agent.
  if (userAgent === '') return automated('empty_user_agent');
  const signature = matchUserAgentSignature(userAgent);
  if (signature !== null) return automated(CATEGORY_REASON[signature.category], signature.name);
  // isbot's list covers crawlers, previewers and headless browsers we do not name ourselves.
  const bot = isbotMatch(userAgent);
  if (bot !== null) return automated('known_scanner_user_agent', `isbot: ${bot}`);

  const network = findScannerNetwork(hit.clientAddress, networks);
  if (network !== null) return automated('scanner_network', network.cidr);
  return null;
}

/** The speculative-load header that marks the request as a prefetch or preview, as `name: value`. */
function prefetchHeader(headers: HitHeaders): string | null {
  for (const name of ['sec-purpose', 'purpose', 'x-purpose', 'x-moz']) {
    const value = headerText(headers, name);
    if (value === '') continue;
    // `Sec-Purpose: prefetch;prerender`, `Purpose: prefetch`, `X-Moz: prefetch`, `X-Purpose: preview`.
    const tokens = value.toLowerCase().split(/[\s,;]+/);
    if (tokens.some((t) => PREFETCH_TOKENS.has(t))) return `${name}: ${value}`;
  }
  return null;
}

function headerText(headers: HitHeaders, name: string): string {
  const value = headers?.[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(', ');
  return '';
}

// ---------------------------------------------------------------------------------------------
// A later interaction makes an earlier click human

/** Automated reasons that only timing suggested; a later interaction by the recipient overrides them. */
export const PROMOTABLE_REASONS: ReadonlySet<ClassificationReason> = new Set<TimingReason>([
  'within_delivery_window',
  'address_burst',
]);

/**
 * Whether this hit, so classified, shows a person was on the landing page, so that their click
 * that only timing made automated becomes human ("a click becomes human for certain when the
 * landing page records an interaction that a scanner does not perform").
 */
export function promotesEarlierClick(hit: Pick<TrackingHit, 'kind'>, verdict: HitClassification): boolean {
  return (hit.kind === 'submit' || hit.kind === 'interaction') && verdict.classification === 'human';
}

export interface RecordedClick {
  at: number;
  clientAddress: string;
  userAgent: string;
  classification: 'human' | 'automated';
  reason: ClassificationReason;
}

/**
 * Which of the recipient's earlier clicks a promoting interaction makes human: the page the
 * person interacted on was loaded by their own browser, so the latest click with a promotable
 * reason and the same user agent, preferably from the same address. None when a human click
 * already counts (promoting a scanner's earlier one would only move the first click's time).
 */
export function clickToPromote<T extends RecordedClick>(
  interaction: { at: number; clientAddress: string; userAgent: string },
  clicks: readonly T[],
): T | null {
  const before = clicks.filter((c) => c.at <= interaction.at);
  if (before.some((c) => c.classification === 'human')) return null;
  const candidates = before.filter(
    (c) =>
      c.classification === 'automated' &&
      PROMOTABLE_REASONS.has(c.reason) &&
      c.userAgent === interaction.userAgent,
  );
  const address = normalizeClientAddress(interaction.clientAddress);
  const sameAddress = candidates.filter((c) => normalizeClientAddress(c.clientAddress) === address);
  const pool = sameAddress.length > 0 ? sameAddress : candidates;
  return pool.reduce<T | null>((latest, c) => (latest === null || c.at > latest.at ? c : latest), null);
}

// ---------------------------------------------------------------------------------------------
// Distinct recipients per client address

/** Recipient → time of its last touch, oldest first. */
type Touches = Map<number | string, number>;

/**
 * Counts, per client address, the distinct recipients whose links it touched within a sliding
 * window: the caller's `recentRecipientsFromAddress`, within one process. O(1) per touch and
 * bounded memory: addresses live in two generations of one window each (an address seen again
 * moves to the current one; the older is dropped whole, or early when the current one holds
 * half of `maxAddresses`), and an address keeps at most `maxRecipientsPerAddress` recipients.
 */
export class AddressBurstCounter {
  readonly #windowMs: number;
  readonly #maxPerGeneration: number;
  readonly #maxRecipients: number;
  #current = new Map<string, Touches>();
  #previous = new Map<string, Touches>();
  #currentSince = Number.NEGATIVE_INFINITY;

  constructor(
    options: { windowSeconds?: number; maxAddresses?: number; maxRecipientsPerAddress?: number } = {},
  ) {
    this.#windowMs = (options.windowSeconds ?? ADDRESS_BURST.windowSeconds) * 1000;
    this.#maxPerGeneration = Math.floor((options.maxAddresses ?? 20_000) / 2);
    // More than the threshold, so a burst is always seen; the count saturates there.
    this.#maxRecipients = options.maxRecipientsPerAddress ?? 4 * ADDRESS_BURST.recipients;
    if (!(this.#windowMs > 0 && this.#maxPerGeneration >= 1 && this.#maxRecipients >= 1)) {
      throw new RangeError('AddressBurstCounter needs a positive window and limits (at least 2 addresses)');
    }
  }

  /**
   * Records that `address` touched `recipientId`'s link at `now` (epoch ms); returns the distinct
   * recipients it touched within the window, this one included. `scope` (an account) counts the
   * address apart per scope, as the settling rule does (tracking.bursts.model.ts).
   */
  touch(address: string, recipientId: number | string, now: number, scope: number | string = ''): number {
    const key = `${scope} ${normalizeClientAddress(address)}`;
    if (now - this.#currentSince >= this.#windowMs) this.#rotate(now);
    let touches = this.#current.get(key);
    if (touches === undefined) {
      touches = this.#previous.get(key) ?? new Map();
      this.#previous.delete(key); // taken before a rotation could drop it
      if (this.#current.size >= this.#maxPerGeneration) this.#rotate(now);
      this.#current.set(key, touches);
    }
    touches.delete(recipientId); // re-inserted last: the map stays in order of touch
    touches.set(recipientId, now);
    this.#expire(touches, now);
    for (const oldest of touches.keys()) {
      if (touches.size <= this.#maxRecipients) break;
      touches.delete(oldest);
    }
    return touches.size;
  }

  /** The recipients `address` touched within the window, oldest first (to reclassify a burst's first hits). */
  recipientsOf(address: string, now: number, scope: number | string = ''): (number | string)[] {
    const key = `${scope} ${normalizeClientAddress(address)}`;
    const touches = this.#current.get(key) ?? this.#previous.get(key);
    if (touches === undefined) return [];
    this.#expire(touches, now);
    return [...touches.keys()];
  }

  /** How many addresses are held (for tests and metrics). */
  get addressCount(): number {
    return this.#current.size + this.#previous.size;
  }

  /** The current generation becomes the previous one, unless it too is older than the window. */
  #rotate(now: number): void {
    this.#previous = now - this.#currentSince < 2 * this.#windowMs ? this.#current : new Map();
    this.#current = new Map();
    this.#currentSince = now;
  }

  #expire(touches: Touches, now: number): void {
    for (const [recipient, at] of touches) {
      if (at > now - this.#windowMs) break;
      touches.delete(recipient);
    }
  }
}
