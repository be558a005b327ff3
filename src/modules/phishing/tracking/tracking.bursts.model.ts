import {
  ADDRESS_BURST,
  type ClassificationReason,
  type HitKind,
} from '../simulation/simulation.classify.model.js';

/**
 * The address-burst rule decided from the recorded hits (docs/phishing-plan.md, "Settling"). A
 * scanner that walks through many people's links from one address is seen hit by hit: the first
 * hits of its burst look like people until the later ones arrive, and with several processes or
 * instances no single process sees the whole burst. So a person's open or click *settles*: once
 * the burst window after it has passed, the scheduler reads the hits of its client address around
 * it from the database (every process's and instance's) and decides. Pure and linear.
 */

/**
 * Time for the hits of other processes and instances to be committed, and for their clocks to
 * differ, after the window: a hit settles this long after the window that starts with it closes.
 */
export const SETTLE_MARGIN_MS = 5_000;
export const BURST_WINDOW_MS = ADDRESS_BURST.windowSeconds * 1000;
/** How long after a person's open or click its classification settles. */
export const SETTLE_DELAY_MS = BURST_WINDOW_MS + SETTLE_MARGIN_MS;

/** The most hits of one address read to decide one range of hits (a scanner's burst shows long before). */
export const TOUCHES_READ_MAX = 2_000;

/**
 * Whether a hit so classified waits to settle: a browser's open or click that nothing but timing
 * could still make automated. Machines' hits, form posts, button presses, reports and a person
 * already proven on the page are decided for good when they arrive.
 */
export function settlesLater(
  kind: HitKind | 'report',
  verdict: { classification: 'human' | 'automated'; reason: ClassificationReason | string },
): boolean {
  return (
    (kind === 'open' || kind === 'click') &&
    verdict.classification === 'human' &&
    verdict.reason === 'browser'
  );
}

/** One hit of an address: whose link, when (epoch ms). */
export interface Touch {
  recipientId: number;
  at: number;
}

/**
 * Whether the hit at `at` belongs to a burst: some window of `windowMs` (start included, end
 * excluded, as `AddressBurstCounter` counts) that holds it and in which the address touched at
 * least `recipients` distinct recipients' links. `touches` are the address's hits around it,
 * sorted by time, the hit itself among them. O(n): each window starts at a touch, and a window
 * that holds `at` starts within `windowMs` before it.
 */
export function inAddressBurst(
  at: number,
  touches: readonly Touch[],
  rule: { recipients: number; windowMs: number } = {
    recipients: ADDRESS_BURST.recipients,
    windowMs: BURST_WINDOW_MS,
  },
): boolean {
  const counts = new Map<number, number>();
  let end = 0;
  for (let start = 0; start < touches.length; start++) {
    const first = touches[start]!.at;
    if (first > at) break;
    // Windows that hold `at`: [first, first + windowMs) with first in (at - windowMs, at].
    while (end < touches.length && touches[end]!.at < first + rule.windowMs) {
      const id = touches[end]!.recipientId;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      end++;
    }
    if (first > at - rule.windowMs && counts.size >= rule.recipients) return true;
    const leaving = touches[start]!.recipientId;
    const left = (counts.get(leaving) ?? 1) - 1;
    if (left === 0) counts.delete(leaving);
    else counts.set(leaving, left);
  }
  return false;
}

/**
 * Which of an address's hits to settle belong to a burst, reading its touches once: the hits
 * sorted by time with the touches (also sorted), for each hit the window of touches around it.
 */
export function hitsInBurst<T extends { at: number }>(hits: readonly T[], touches: readonly Touch[]): Set<T> {
  const found = new Set<T>();
  const sorted = [...hits].sort((a, b) => a.at - b.at);
  let from = 0;
  let to = 0;
  for (const hit of sorted) {
    while (from < touches.length && touches[from]!.at <= hit.at - BURST_WINDOW_MS) from++;
    if (to < from) to = from;
    while (to < touches.length && touches[to]!.at < hit.at + BURST_WINDOW_MS) to++;
    if (inAddressBurst(hit.at, touches.slice(from, to))) found.add(hit);
  }
  return found;
}
