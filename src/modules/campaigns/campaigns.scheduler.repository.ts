import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { ownCampaignId } from './campaigns.repository.js';

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

export interface RemindedCampaign {
  id: number;
  account_id: number;
  due_at: number;
  reminder_days: string;
  launched_at: number | null;
  /** The rounds (days before due) already queued. */
  queued: Set<number>;
}

/** Operator-wide: every account's active campaigns with a due date and reminder days, with the rounds already queued. */
export async function remindedCampaignsOfAllAccounts(db: Db): Promise<RemindedCampaign[]> {
  const campaigns = await db
    .selectFrom('training_campaigns')
    .select(['id', 'account_id', 'due_at', 'reminder_days', 'launched_at'])
    .where('status', '=', 'active')
    .where('due_at', 'is not', null)
    .where('reminder_days', '!=', '[]')
    .execute();
  if (campaigns.length === 0) return [];
  const rounds = await db
    .selectFrom('campaign_reminders')
    .select(['campaign_id', 'days_before_due'])
    .where(
      'campaign_id',
      'in',
      campaigns.map((c) => c.id),
    )
    .execute();
  const queued = new Map(campaigns.map((c) => [c.id, new Set<number>()]));
  for (const r of rounds) queued.get(r.campaign_id)?.add(r.days_before_due);
  return campaigns.map((c) => ({ ...c, due_at: c.due_at as number, queued: queued.get(c.id) ?? new Set() }));
}

/**
 * Records a reminder round of the account's campaign as queued, with no reminders yet. Its
 * primary key lets one scheduler through (several instances may try): false for the others,
 * and for another account's campaign.
 */
export async function claimReminderRound(
  trx: Db,
  accountId: number,
  round: { campaignId: number; days: number; now: number },
): Promise<boolean> {
  const claimed = await trx
    .insertInto('campaign_reminders')
    .columns(['campaign_id', 'days_before_due', 'queued_at', 'queued_count'])
    .expression(
      ownCampaignId(trx, accountId, round.campaignId).select([
        sql.lit(round.days).as('days_before_due'),
        sql.lit(round.now).as('queued_at'),
        sql.lit(0).as('queued_count'),
      ]),
    )
    .onConflict((oc) => oc.columns(['campaign_id', 'days_before_due']).doNothing())
    .executeTakeFirst();
  return Number(claimed.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** How many reminders a claimed round queued. */
export async function recordReminderCount(
  trx: Db,
  accountId: number,
  round: { campaignId: number; days: number },
  count: number,
): Promise<void> {
  await trx
    .updateTable('campaign_reminders')
    .set({ queued_count: count })
    .where('campaign_id', '=', ownCampaignId(trx, accountId, round.campaignId))
    .where('days_before_due', '=', round.days)
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
        .where('c.due_at', '<', now)
        .where('e.completed_at', 'is', null)
        .where('e.overdue_at', 'is', null)
        .limit(limit),
    )
    .returning(['id', 'account_id', 'campaign_id'])
    .execute();
}
