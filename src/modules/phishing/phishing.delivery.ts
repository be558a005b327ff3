import type { Db } from '../../db/database.js';
import { addActivity, addToFigures } from './phishing.figures.repository.js';

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
    const moved = await trx
      .updateTable('phishing_recipients')
      .set(outcome === 'sent' ? { status: 'sent', sent_at: at } : { status: 'failed', failed_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', recipientId)
      .where('status', '=', 'scheduled')
      .returning(['campaign_id', 'group_ids', 'template_key'])
      .executeTakeFirst();
    if (!moved) return false;
    await trx
      .insertInto('phishing_events')
      .values({
        account_id: accountId,
        campaign_id: moved.campaign_id,
        recipient_id: recipientId,
        kind: outcome === 'sent' ? 'sent' : 'delivery_failed',
        occurred_at: at,
        classification: 'human',
        reason: outcome === 'sent' ? 'smtp_accepted' : 'delivery_failed',
      })
      .execute();
    const membership = {
      group_ids: JSON.parse(moved.group_ids) as number[],
      template_key: moved.template_key,
    };
    await addToFigures(
      trx,
      moved.campaign_id,
      membership,
      outcome === 'sent' ? { delivered: 1 } : { failed: 1 },
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
  const rows = await db
    .selectFrom('phishing_campaigns as c')
    .innerJoin('phishing_recipients as r', 'r.campaign_id', 'c.id')
    .innerJoin('messages as m', (j) =>
      j.onRef('m.phishing_recipient_id', '=', 'r.id').onRef('m.account_id', '=', 'r.account_id'),
    )
    .select(['r.id', 'r.account_id', 'm.status', 'm.sent_at'])
    .where('c.status', 'in', ['running', 'completed'])
    .where('r.status', '=', 'scheduled')
    .where('r.planned_at', '<=', now)
    .where('m.status', 'in', ['sent', 'failed'])
    .limit(limit)
    .execute();
  let recorded = 0;
  for (const r of rows) {
    const outcome = r.status === 'sent' ? 'sent' : 'failed';
    if (await recordSimulationOutcome(db, r.account_id, r.id, outcome, r.sent_at ?? now)) recorded++;
  }
  return recorded;
}
