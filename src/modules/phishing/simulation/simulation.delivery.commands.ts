import type { Db } from '../../../core/db/database.js';
import { insertDeliveryEvent } from './simulation.events.repository.js';
import { addActivity, addToFigures } from './simulation.figures.repository.js';
import {
  moveScheduledRecipient,
  scheduledRecipientsWithOutcomeOfAllAccounts,
} from './simulation.recipients.repository.js';

/**
 * A simulation's delivery, recorded on its recipient once the mail worker knows the outcome
 * (after the message's own record: mail-worker.ts): in one transaction, the recipient's status
 * and time, the event and the figures. Idempotent: only a recipient still `scheduled` moves, so
 * a second call (a retried record, the catch-up sweep) changes nothing.
 */
export async function recordSimulationOutcome(
  db: Db,
  accountId: number,
  recipientId: number,
  outcome: 'sent' | 'failed',
  at: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const moved = await moveScheduledRecipient(trx, accountId, recipientId, outcome, at);
    if (!moved) return false;
    await insertDeliveryEvent(trx, accountId, moved.campaign_id, recipientId, outcome, at);
    const membership = {
      group_ids: JSON.parse(moved.group_ids) as number[],
      template_key: moved.template_key,
    };
    await addToFigures(
      trx,
      moved.campaign_id,
      membership,
      // A recipient still scheduled has neither clicked nor reported: delivered, it is a miss until then.
      outcome === 'sent' ? { delivered: 1, missed: 1 } : { failed: 1 },
    );
    if (outcome === 'sent') await addActivity(trx, moved.campaign_id, at, 'delivered', 1);
    return true;
  });
}

/**
 * Recipients still `scheduled` whose simulation the queue has sent or failed: the worker stopped
 * between the message's record and the recipient's. The scheduler records them (idempotent).
 */
export async function catchUpSimulationOutcomesOfAllAccounts(
  db: Db,
  now: number,
  limit = 500,
): Promise<number> {
  // Cross-account by design: one sweep over the running campaigns of every account.
  const rows = await scheduledRecipientsWithOutcomeOfAllAccounts(db, now, limit);
  let recorded = 0;
  for (const r of rows) {
    const outcome = r.status === 'sent' ? 'sent' : 'failed';
    if (await recordSimulationOutcome(db, r.account_id, r.id, outcome, r.sent_at ?? now)) recorded++;
  }
  return recorded;
}
