import type { Db } from '../../db/database.js';
import { BURST_WINDOW_MS, hitsInBurst, TOUCHES_READ_MAX } from './phishing.bursts.js';
import { campaignRecipientsChanged } from './phishing.campaign-changes.js';
import { eventsOfRecipient } from './phishing.events.repository.js';
import {
  type RecipientWithCampaign,
  recipientsForUpdate,
  writeRecipientSteps,
} from './phishing.recipients.repository.js';
import { announceSettled, awaitsAnnouncement } from './phishing.remedial.js';
import {
  clearDueSettling,
  dueHitsOfRecipients,
  dueSettlingOfAllAccounts,
  markAddressBurst,
  recipientsProvenHuman,
  recipientsStillSettling,
  touchesOfAddress,
} from './phishing.settle.repository.js';
import {
  applyStepChanges,
  membershipOf,
  StepBatch,
  statusOf,
  timesFromEvents,
  timesOf,
} from './phishing.steps.js';

/**
 * Settling tracking hits (docs/phishing-plan.md, "Settling"): background work of the scheduler,
 * from the database, so it survives a restart and any number of processes and instances record
 * the hits. Once a person's open or click is older than the burst window (and a margin), the hits
 * of its client address around it, every process's, say whether it was part of a scanner's burst:
 * then it becomes automated (`address_burst`), unless the recipient proved to be a person on the
 * landing page, and the recipient's first times, status and figures are recomputed from its human
 * hits as if it had been automated from the start. When none of a recipient's hits waits any
 * more, its settled first click is announced and a failure enrolled (phishing.remedial.ts).
 *
 * Runs once however many workers run it: each batch locks its recipients (PostgreSQL skips those
 * another worker holds; SQLite's write transaction is exclusive) and settles only the hits still
 * waiting under that lock.
 */

export interface SettleTotals {
  /** Hits settled. */
  settled: number;
  /** Of them, found in a scanner's burst and made automated. */
  reclassified: number;
  /** First clicks announced (`phishing.simulation_clicked`). */
  announced: number;
  /** People enrolled in remedial training (an invitation queued each). */
  enrolled: number;
}

const none = (): SettleTotals => ({ settled: 0, reclassified: 0, announced: 0, enrolled: 0 });

/** Settles the hits due by `now`, a batch of recipients per transaction, at most `maxBatches` batches a pass. */
export async function settleTrackingHitsOfAllAccounts(
  db: Db,
  now: number,
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<SettleTotals> {
  const batchSize = options.batchSize ?? 200;
  const totals = none();
  for (let i = 0; i < (options.maxBatches ?? 50); i++) {
    const due = await dueSettlingOfAllAccounts(db, now, batchSize);
    if (due.length === 0) break;
    const changed = new Set<number>();
    const done = await db.transaction().execute((trx) => settleRecipients(trx, due, now, changed));
    // This process's tracking routes read those recipients again (others within their cache's TTL).
    for (const campaignId of changed) campaignRecipientsChanged(campaignId);
    for (const key of Object.keys(totals) as (keyof SettleTotals)[]) totals[key] += done[key];
    // Nothing settled: another worker holds them all (or none are left).
    if (done.settled === 0) break;
  }
  return totals;
}

type DueHit = Awaited<ReturnType<typeof dueHitsOfRecipients>>[number];

/** A browser's open or click, as recorded, that nobody reclassified since: the burst rule may still claim it. */
const claimable = (h: DueHit) =>
  (h.kind === 'opened' || h.kind === 'clicked') &&
  h.classification === 'human' &&
  h.reason === 'browser' &&
  h.reclassified_by === null &&
  h.client_address !== null;

async function settleRecipients(
  trx: Db,
  due: readonly { accountId: number; recipientId: number }[],
  now: number,
  changed: Set<number>,
): Promise<SettleTotals> {
  const totals = none();
  const batch = new StepBatch();
  const byAccount = new Map<number, number[]>();
  for (const { accountId, recipientId } of due) {
    const ids = byAccount.get(accountId);
    if (ids) ids.push(recipientId);
    else byAccount.set(accountId, [recipientId]);
  }
  for (const [accountId, ids] of [...byAccount].sort(([a], [b]) => a - b)) {
    const recipients = await recipientsForUpdate(trx, accountId, ids, { skipLocked: true });
    if (recipients.length === 0) continue;
    const recipientIds = recipients.map((r) => r.id);
    // Read under the recipients' locks: a hit settled meanwhile by another worker is no longer due.
    const hits = await dueHitsOfRecipients(trx, accountId, recipientIds, now);
    const burst = await hitsOfBursts(trx, accountId, hits.filter(claimable));
    await markAddressBurst(
      trx,
      accountId,
      burst.map((h) => Number(h.id)),
    );
    await clearDueSettling(trx, accountId, recipientIds, now);
    const waiting = await recipientsStillSettling(trx, accountId, recipientIds);
    for (const recipient of recipients) {
      const reclassified = burst.filter((h) => Number(h.recipient_id) === recipient.id).length;
      if (reclassified > 0) {
        await recompute(trx, batch, recipient, reclassified);
        changed.add(recipient.campaign_id);
      }
      if (waiting.has(recipient.id) || !awaitsAnnouncement(recipient)) continue;
      const announced = recipient.click_announced_at;
      if (await announceSettled(trx, batch, recipient, membershipOf(recipient), now)) {
        totals.enrolled++;
        changed.add(recipient.campaign_id);
      }
      if (recipient.click_announced_at !== announced) totals.announced++;
    }
    totals.settled += hits.length;
    totals.reclassified += burst.length;
  }
  await batch.finish(trx);
  return totals;
}

/**
 * The hits among `hits` that a scanner's burst claims: per client address, its recorded hits
 * from a window before the first to a window after the last, and of the hits found in a burst
 * those of recipients not proven to be a person on the landing page.
 */
async function hitsOfBursts(trx: Db, accountId: number, hits: readonly DueHit[]): Promise<DueHit[]> {
  const byAddress = new Map<string, { at: number; hit: DueHit }[]>();
  for (const hit of hits) {
    const address = hit.client_address as string;
    const group = byAddress.get(address);
    if (group) group.push({ at: Number(hit.occurred_at), hit });
    else byAddress.set(address, [{ at: Number(hit.occurred_at), hit }]);
  }
  const found: DueHit[] = [];
  for (const [address, group] of byAddress) {
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const { at } of group) {
      first = Math.min(first, at);
      last = Math.max(last, at);
    }
    const touches = await touchesOfAddress(
      trx,
      accountId,
      address,
      first - BURST_WINDOW_MS,
      last + BURST_WINDOW_MS,
      TOUCHES_READ_MAX,
    );
    for (const { hit } of hitsInBurst(group, touches)) found.push(hit);
  }
  if (found.length === 0) return found;
  const proven = await recipientsProvenHuman(trx, accountId, [
    ...new Set(found.map((h) => Number(h.recipient_id))),
  ]);
  return found.filter((h) => !proven.has(Number(h.recipient_id)));
}

/** The recipient's first times, status and figures from its human hits, now that some became automated. */
async function recompute(
  trx: Db,
  batch: StepBatch,
  recipient: RecipientWithCampaign,
  reclassified: number,
): Promise<void> {
  const before = timesOf(recipient);
  const after = timesFromEvents(
    recipient.sent_at,
    await eventsOfRecipient(trx, recipient.account_id, recipient.id),
  );
  applyStepChanges(batch.figures, recipient.campaign_id, membershipOf(recipient), before, after, {
    automated_events: reclassified,
  });
  const status = statusOf(after, recipient.status);
  await writeRecipientSteps(trx, recipient.account_id, recipient.id, { ...after, status });
  Object.assign(recipient, after, { status });
}
