import type { Db } from '../../../core/db/database.js';
import { emit } from '../../../core/events.js';
import type { TrainingEvents } from './campaigns.events.model.js';
import { markOverdueEnrollmentsOfAllAccounts } from './campaigns.scheduler.repository.js';

export type { TrainingEvents } from './campaigns.events.model.js';

/**
 * Tells what happened to a training campaign (`training.campaign_changed`), inside the caller's
 * transaction: every path that launches, completes or enrolls emits it, so webhooks see them all.
 */
export async function emitTrainingEvents(
  trx: Db,
  accountId: number,
  campaignId: number,
  which: TrainingEvents,
  now = Date.now(),
): Promise<void> {
  if (
    which.enrollments &&
    which.enrollments.ids !== 'all' &&
    which.enrollments.ids.length === 0 &&
    !which.campaign
  )
    return;
  await emit(trx, 'training.campaign_changed', { accountId, campaignId, which, now });
}

/**
 * Finds the enrollments that became overdue (their campaign's due date passed, not completed)
 * and emits `training.enrollment_overdue` once for each, a batch a call, in one transaction
 * with their marks. Returns how many were found. The scheduler calls it.
 */
export async function emitOverdueEnrollmentsOfAllAccounts(
  db: Db,
  now: number,
  limit = 1000,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Cross-account by design: one pass serves every account; each account's events are its own.
    const found = await markOverdueEnrollmentsOfAllAccounts(trx, now, limit);
    const byCampaign = new Map<string, { accountId: number; campaignId: number; ids: number[] }>();
    for (const row of found) {
      const key = `${row.account_id}:${row.campaign_id}`;
      const entry = byCampaign.get(key) ?? {
        accountId: row.account_id,
        campaignId: row.campaign_id,
        ids: [],
      };
      entry.ids.push(row.id);
      byCampaign.set(key, entry);
    }
    for (const { accountId, campaignId, ids } of byCampaign.values()) {
      await emitTrainingEvents(
        trx,
        accountId,
        campaignId,
        { enrollments: { type: 'training.enrollment_overdue', ids } },
        now,
      );
    }
    return found.length;
  });
}
