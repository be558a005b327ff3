import { sql } from 'kysely';
import type { Db } from '../../../core/db/database.js';

/**
 * SQL of the scheduler: what is due over every account (operator-wide, named so), then each
 * round recorded for one account's campaign.
 */

/** Operator-wide: every account's scheduled campaigns whose start has come, oldest start first. */
export function dueScheduledCampaignsOfAllAccounts(db: Db, now: number, limit: number) {
  return db
    .selectFrom('training_campaigns')
    .select(['id', 'account_id'])
    .where('status', '=', 'scheduled')
    .where('start_at', '<=', now)
    .orderBy('start_at')
    .limit(limit)
    .execute();
}

/**
 * Marks up to `limit` enrollments of active campaigns, of any account, that are past their
 * campaign's due date and not completed, as found overdue now (each once: `overdue_at`), and
 * returns them. Cross-account by design: the scheduler serves every account.
 */
export async function markOverdueEnrollmentsOfAllAccounts(
  trx: Db,
  now: number,
  limit: number,
): Promise<Array<{ id: number; account_id: number; campaign_id: number }>> {
  return trx
    .updateTable('enrollments')
    .set({ overdue_at: now })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('enrollments as e')
        .innerJoin('training_campaigns as c', (j) =>
          j.onRef('c.id', '=', 'e.campaign_id').onRef('c.account_id', '=', 'e.account_id'),
        )
        .select('e.id')
        .where('c.status', '=', 'active')
        // An enrollment's own due date (remedial training) before its campaign's.
        .where(sql<number>`coalesce(e.due_at, c.due_at)`, '<', now)
        .where('e.completed_at', 'is', null)
        .where('e.overdue_at', 'is', null)
        .limit(limit),
    )
    .returning(['id', 'account_id', 'campaign_id'])
    .execute();
}
