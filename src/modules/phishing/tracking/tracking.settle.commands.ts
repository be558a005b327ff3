import type { Db } from '../../../core/db/database.js';
import { campaignRecipientsChanged } from '../simulation/simulation.campaign-changes.service.js';
import { eventsOfRecipient } from '../simulation/simulation.events.repository.js';
import {
  type RecipientWithCampaign,
  recipientsForUpdate,
  writeRecipientSteps,
} from '../simulation/simulation.recipients.repository.js';
import { BURST_WINDOW_MS, hitsInBurst, TOUCHES_READ_MAX, type Touch } from './tracking.bursts.model.js';
import { announceSettled, awaitsAnnouncement } from './tracking.remedial.commands.js';
import {
  clearSettling,
  dueHitsOfAllAccounts,
  hitsStillSettling,
  markAddressBurst,
  recipientsProvenHuman,
  recipientsStillSettling,
  type SettlingHit,
  touchesOfAddresses,
} from './tracking.settle.repository.js';
import { StepBatch } from './tracking.steps.batch.commands.js';
import {
  applyStepChanges,
  membershipOf,
  statusOf,
  timesFromEvents,
  timesOf,
} from './tracking.steps.model.js';

/**
 * Settling tracking hits (docs/phishing-plan.md, "Settling"): background work of the scheduler,
 * from the database, so it survives a restart and any number of processes and instances record
 * the hits. Once a person's open or click is older than the burst window (and a margin), the hits
 * of its client address around it, every process's, say whether it was part of a scanner's burst:
 * then it becomes automated (`address_burst`), unless the recipient proved to be a person on the
 * landing page, and the recipient's first times, status and figures are recomputed from its human
 * hits as if it had been automated from the start. When none of a recipient's hits waits any
 * more, its settled first click is announced and a failure enrolled (tracking.remedial.commands.ts).
 *
 * The hits around are read before the batch's transaction (they are past and committed), so the
 * transaction stays short. It runs once however many workers run it: the transaction locks the
 * batch's recipients (PostgreSQL skips those another worker holds; SQLite's write transaction is
 * exclusive) and settles only the hits still waiting under that lock.
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

/** Addresses read per statement, and the touches it may return before each address is read alone. */
const ADDRESSES_PER_READ = 100;
const TOUCHES_PER_READ = 20_000;

/** Settles the hits due by `now`, `batchSize` hits per transaction, at most `maxBatches` batches a pass. */
export async function settleTrackingHitsOfAllAccounts(
  db: Db,
  now: number,
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<SettleTotals> {
  const totals = none();
  for (let i = 0; i < (options.maxBatches ?? 40); i++) {
    const due = await dueHitsOfAllAccounts(db, now, options.batchSize ?? 500);
    if (due.length === 0) break;
    const claimed = await hitsOfBursts(db, due);
    const changed = new Set<number>();
    const done = await db.transaction().execute((trx) => settleHits(trx, due, claimed, now, changed));
    // This process's tracking routes read those recipients again (others within their cache's TTL).
    for (const campaignId of changed) campaignRecipientsChanged(campaignId);
    for (const key of Object.keys(totals) as (keyof SettleTotals)[]) totals[key] += done[key];
    // Nothing settled: another worker holds them all.
    if (done.settled === 0) break;
  }
  return totals;
}

/** A browser's open or click, as recorded, that nobody reclassified since: the burst rule may still claim it. */
const claimable = (h: SettlingHit) =>
  (h.kind === 'opened' || h.kind === 'clicked') &&
  h.classification === 'human' &&
  h.reason === 'browser' &&
  h.reclassified_by === null &&
  h.client_address !== null;

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/**
 * The ids of the hits among `due` that a scanner's burst claims: per account, the hits of their
 * client addresses from a window before the first to a window after the last, read once.
 */
async function hitsOfBursts(db: Db, due: readonly SettlingHit[]): Promise<Set<number>> {
  const claimed = new Set<number>();
  for (const [accountId, hits] of groupBy(due.filter(claimable), (h) => Number(h.account_id))) {
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    for (const h of hits) {
      from = Math.min(from, Number(h.occurred_at) - BURST_WINDOW_MS);
      to = Math.max(to, Number(h.occurred_at) + BURST_WINDOW_MS);
    }
    const byAddress = groupBy(hits, (h) => h.client_address as string);
    const addresses = [...byAddress.keys()];
    for (let i = 0; i < addresses.length; i += ADDRESSES_PER_READ) {
      const some = addresses.slice(i, i + ADDRESSES_PER_READ);
      let touches = await touchesOfAddresses(db, accountId, some, from, to, TOUCHES_PER_READ);
      // A busy range: each address alone, within its own bound.
      if (touches.length >= TOUCHES_PER_READ) {
        touches = [];
        for (const address of some)
          touches.push(...(await touchesOfAddresses(db, accountId, [address], from, to, TOUCHES_READ_MAX)));
      }
      const touchesOf = groupBy(touches, (t) => t.address);
      for (const address of some) {
        const group = (byAddress.get(address) ?? []).map((hit) => ({ at: Number(hit.occurred_at), hit }));
        const around: Touch[] = touchesOf.get(address) ?? [];
        for (const { hit } of hitsInBurst(group, around)) claimed.add(Number(hit.id));
      }
    }
  }
  return claimed;
}

async function settleHits(
  trx: Db,
  due: readonly SettlingHit[],
  claimed: ReadonlySet<number>,
  now: number,
  changed: Set<number>,
): Promise<SettleTotals> {
  const totals = none();
  const batch = new StepBatch();
  for (const [accountId, hits] of [...groupBy(due, (h) => Number(h.account_id))].sort(([a], [b]) => a - b)) {
    const ids = [...new Set(hits.map((h) => Number(h.recipient_id)))];
    const recipients = await recipientsForUpdate(trx, accountId, ids, { skipLocked: true });
    if (recipients.length === 0) continue;
    const locked = new Set(recipients.map((r) => r.id));
    // Read again under the recipients' locks: a hit settled (or reclassified) meanwhile is as it is now.
    const still = await hitsStillSettling(
      trx,
      accountId,
      hits.filter((h) => locked.has(Number(h.recipient_id))).map((h) => Number(h.id)),
    );
    const inBurst = still.filter((h) => claimed.has(Number(h.id)) && claimable(h));
    const proven = await recipientsProvenHuman(trx, accountId, [
      ...new Set(inBurst.map((h) => Number(h.recipient_id))),
    ]);
    const burst = inBurst.filter((h) => !proven.has(Number(h.recipient_id)));
    await markAddressBurst(
      trx,
      accountId,
      burst.map((h) => Number(h.id)),
    );
    await clearSettling(
      trx,
      accountId,
      still.map((h) => Number(h.id)),
    );
    const waiting = await recipientsStillSettling(trx, accountId, [...locked]);
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
    totals.settled += still.length;
    totals.reclassified += burst.length;
  }
  await batch.finish(trx);
  return totals;
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
