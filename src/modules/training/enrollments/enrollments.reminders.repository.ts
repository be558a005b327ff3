import { sql } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import { ownCampaignId } from './enrollments.repository.js';

export interface RemindedCampaign {
  id: number;
  account_id: number;
  due_at: number;
  reminder_days: string;
  launched_at: number | null;
  /** The rounds (days before due) already queued. */
  queued: Set<number>;
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

export interface RemindedEnrollment {
  id: number;
  account_id: number;
  campaign_id: number;
  due_at: number;
  enrolled_at: number;
  reminded_days: number | null;
  reminder_days: string;
}

/** The furthest a reminder round can be before its due date (the form's bound on reminder days). */
const MAX_REMINDER_MS = 365 * 86_400_000;

/**
 * Operator-wide: enrollments with a due date of their own still ahead (within the furthest a
 * round can be), not completed, of a person still there, in an active campaign with reminder
 * days, with the campaign's reminder days.
 */
export async function remindedEnrollmentsOfAllAccounts(db: Db, now: number): Promise<RemindedEnrollment[]> {
  const rows = await db
    .selectFrom('enrollments as e')
    .innerJoin('training_campaigns as c', (j) =>
      j.onRef('c.id', '=', 'e.campaign_id').onRef('c.account_id', '=', 'e.account_id'),
    )
    .select([
      'e.id',
      'e.account_id',
      'e.campaign_id',
      'e.due_at',
      'e.enrolled_at',
      'e.reminded_days',
      'c.reminder_days',
    ])
    .where('e.due_at', 'is not', null)
    .where('e.completed_at', 'is', null)
    .where('e.due_at', '>', now)
    .where('e.due_at', '<=', now + MAX_REMINDER_MS)
    .where('e.employee_deleted_at', 'is', null)
    // Every round (at least one day before) already queued: nothing left to remind of.
    .where((eb) => eb.or([eb('e.reminded_days', 'is', null), eb('e.reminded_days', '>', 1)]))
    .where('c.status', '=', 'active')
    .where('c.reminder_days', '!=', '[]')
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({ ...r, due_at: r.due_at as number }));
}

/**
 * Records `days` as the last reminder round of the account's enrollment, if it is later than the
 * last one recorded and the training is not completed: true for the one scheduler that did.
 */
export async function claimEnrollmentRound(
  trx: Db,
  accountId: number,
  enrollmentId: number,
  days: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('enrollments')
    .set({ reminded_days: days })
    .where('account_id', '=', accountId)
    .where('id', '=', enrollmentId)
    .where('completed_at', 'is', null)
    .where((eb) => eb.or([eb('reminded_days', 'is', null), eb('reminded_days', '>', days)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
