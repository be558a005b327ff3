import type { Db } from '../../db/database.js';
import { queueCampaignMessages } from '../mail/mail.queue.js';

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
  const campaigns = await db
    .selectFrom('training_campaigns')
    .select(['id', 'account_id', 'due_at', 'reminder_days', 'launched_at'])
    .where('status', '=', 'active')
    .where('due_at', 'is not', null)
    .where('reminder_days', '!=', '[]')
    .execute();
  if (campaigns.length === 0) return [];
  const queued = await db
    .selectFrom('campaign_reminders')
    .select(['campaign_id', 'days_before_due'])
    .where(
      'campaign_id',
      'in',
      campaigns.map((c) => c.id),
    )
    .execute();
  const done = new Set(queued.map((r) => `${r.campaign_id}:${r.days_before_due}`));
  const rounds: Round[] = [];
  for (const c of campaigns) {
    const dueAt = c.due_at as number;
    const come = reminderDays(c.reminder_days)
      .filter((d) => dueAt - d * DAY_MS <= now)
      .sort((a, b) => a - b);
    const latest = come[0];
    for (const days of come) {
      if (done.has(`${c.id}:${days}`)) continue;
      const skip = (c.launched_at ?? 0) >= dueAt - days * DAY_MS || days !== latest || now >= dueAt;
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
export async function queueDueReminders(db: Db, now: number): Promise<number> {
  let total = 0;
  for (const round of await dueRounds(db, now)) {
    total += await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('campaign_reminders')
        .values({
          campaign_id: round.campaignId,
          days_before_due: round.days,
          queued_at: now,
          queued_count: 0,
        })
        .onConflict((oc) => oc.columns(['campaign_id', 'days_before_due']).doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0 || round.skip) return 0;
      const count = await queueCampaignMessages(trx, {
        accountId: round.accountId,
        campaignId: round.campaignId,
        kind: 'reminder',
        round: round.days,
        now,
        incompleteOnly: true,
      });
      await trx
        .updateTable('campaign_reminders')
        .set({ queued_count: count })
        .where('campaign_id', '=', round.campaignId)
        .where('days_before_due', '=', round.days)
        .execute();
      return count;
    });
  }
  return total;
}
