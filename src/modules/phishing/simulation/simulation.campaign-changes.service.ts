/**
 * Per process: which phishing campaigns changed status here (or had recipients moved by the
 * scheduler here), and when (a sequence, not a clock).
 * The tracking routes keep a token's recipient and campaign for a few seconds; an entry read
 * before its campaign was stopped, completed or archived in this process is read again at once,
 * so the next click shows the teachable page. (Another process's change shows within the
 * cache's TTL; the write path never relies on the cache: it re-reads the campaign's status.)
 */

let sequence = 0;
/** Entries read before this point are stale whatever their campaign (the map below was cleared). */
let floor = 0;
const changedAt = new Map<number, number>();
const MAX_CAMPAIGNS = 10_000;

/** The current point, taken before a read whose result is cached. */
export function campaignChangesSeen(): number {
  return sequence;
}

/** Called once a campaign's status change has committed. */
export function campaignStatusChanged(campaignId: number): void {
  sequence++;
  if (changedAt.size >= MAX_CAMPAIGNS) {
    changedAt.clear();
    floor = sequence;
  }
  changedAt.set(campaignId, sequence);
}

/**
 * Called once recipients of a campaign moved outside the tracking routes (the scheduler settled
 * their hits, tracking.settle.commands.ts): this process's cached recipients of it are read again.
 */
export function campaignRecipientsChanged(campaignId: number): void {
  campaignStatusChanged(campaignId);
}

/** Whether the campaign changed status after `seen` (a `campaignChangesSeen()` taken before the read). */
export function campaignChangedSince(campaignId: number, seen: number): boolean {
  return seen < floor || (changedAt.get(campaignId) ?? 0) > seen;
}
