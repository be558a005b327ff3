import type { Db } from '../../db/database.js';
import { queueCampaignMessages } from '../mail/mail.queue.js';
import {
  claimReminderRound,
  recordReminderCount,
  remindedCampaignsOfAllAccounts,
} from './campaigns.scheduler.repository.js';

const DAY_MS = 86_400_000;

/** One reminder round of an active campaign: `days` before the due date. */
interface Round {
  accountId: number;
  campaignId: number;
  days: number;
  /** Queued as 0 and never sent: its moment was already past at launch, or a later round has come too. */
  skip: boolean;
}

function reminderDays(json: string): number[] {
  try {
    const days = JSON.parse(json);
    return Array.isArray(days) ? days.filter((d) => Number.isInteger(d) && d > 0) : [];
  } catch {
    return [];
  }
}

/**
 * The rounds due now and not yet queued. A round whose moment (due date − days) came before the
 * launch is skipped, and so are all but the latest when several have come at once (the
 * scheduler was down for days): people get one reminder, not a pile of them; none after the due date.
 */
async function dueRounds(db: Db, now: number): Promise<Round[]> {
  const rounds: Round[] = [];
  for (const c of await remindedCampaignsOfAllAccounts(db)) {
    const come = reminderDays(c.reminder_days)
      .filter((d) => c.due_at - d * DAY_MS <= now)
      .sort((a, b) => a - b);
    const latest = come[0];
    for (const days of come) {
      if (c.queued.has(days)) continue;
      const skip = (c.launched_at ?? 0) >= c.due_at - days * DAY_MS || days !== latest || now >= c.due_at;
      rounds.push({ accountId: c.account_id, campaignId: c.id, days, skip });
    }
  }
  return rounds;
}

/**
 * Queues the reminder rounds whose moment has come: for each, in one transaction, the round is
 * recorded (its primary key lets only one scheduler through, even with several instances) and
 * one reminder per enrollment not yet completed is queued. Returns the reminders queued.
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
      });
      await recordReminderCount(trx, round.accountId, round, count);
      return count;
    });
  }
  return total;
}
