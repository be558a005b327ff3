import type { Db } from '../../../core/db/database.js';
import { queueCampaignMessages } from '../../mail/index.js';
import { reminderDays, roundsDue } from './enrollments.reminders.model.js';
import {
  claimEnrollmentRound,
  claimReminderRound,
  recordReminderCount,
  remindedCampaignsOfAllAccounts,
  remindedEnrollmentsOfAllAccounts,
} from './enrollments.reminders.repository.js';

/** One reminder round of an active campaign: `days` before the due date. */
interface Round {
  accountId: number;
  campaignId: number;
  days: number;
  /** Queued as 0 and never sent: its moment was already past at launch, or a later round has come too. */
  skip: boolean;
}

/** The campaign-wide rounds due now and not yet queued (enrollments.reminders.model.ts says which). */
async function dueRounds(db: Db, now: number): Promise<Round[]> {
  const rounds: Round[] = [];
  for (const c of await remindedCampaignsOfAllAccounts(db)) {
    const dates = { dueAt: c.due_at, startedAt: c.launched_at ?? 0, now };
    for (const round of roundsDue(reminderDays(c.reminder_days), dates, (d) => c.queued.has(d))) {
      rounds.push({ accountId: c.account_id, campaignId: c.id, ...round });
    }
  }
  return rounds;
}

/**
 * Queues the reminder rounds whose moment has come: for each, in one transaction, the round is
 * recorded (its primary key lets only one scheduler through, even with several instances) and
 * one reminder per enrollment not yet completed is queued. Then the same for the enrollments
 * with a due date of their own (remedial training). Returns the reminders queued.
 */
export async function queueDueRemindersOfAllAccounts(db: Db, now: number): Promise<number> {
  // Cross-account by design: the scheduler reminds the people of every account's campaigns.
  let total = 0;
  for (const round of await dueRounds(db, now)) {
    total += await db.transaction().execute(async (trx) => {
      const claimed = await claimReminderRound(trx, round.accountId, { ...round, now });
      if (!claimed || round.skip) return 0;
      const count = await queueCampaignMessages(trx, {
        accountId: round.accountId,
        campaignId: round.campaignId,
        kind: 'reminder',
        round: round.days,
        now,
        incompleteOnly: true,
        campaignDueOnly: true,
      });
      await recordReminderCount(trx, round.accountId, round, count);
      return count;
    });
  }
  return total + (await queueOwnDueReminders(db, now));
}

/**
 * The rounds of enrollments due on a date of their own (remedial training: assignment + the
 * phishing campaign's days), by their campaign's reminder days and the same rule as a
 * campaign's. Each enrollment records the last round queued to it (`reminded_days`): the
 * conditional update that records it lets one scheduler through, and its reminder is queued in
 * the same transaction.
 */
async function queueOwnDueReminders(db: Db, now: number): Promise<number> {
  let total = 0;
  for (const e of await remindedEnrollmentsOfAllAccounts(db, now)) {
    const dates = { dueAt: e.due_at, startedAt: e.enrolled_at, now };
    const queued = (d: number) => e.reminded_days !== null && e.reminded_days <= d;
    const rounds = roundsDue(reminderDays(e.reminder_days), dates, queued);
    // The latest round that has come: it stands for the earlier ones (recorded with it, never sent).
    const latest = rounds[0];
    if (!latest) continue;
    total += await db.transaction().execute(async (trx) => {
      const claimed = await claimEnrollmentRound(trx, e.account_id, e.id, latest.days);
      if (!claimed || latest.skip) return 0;
      return queueCampaignMessages(trx, {
        accountId: e.account_id,
        campaignId: e.campaign_id,
        kind: 'reminder',
        round: latest.days,
        now,
        incompleteOnly: true,
        enrollmentIds: [e.id],
      });
    });
  }
  return total;
}
