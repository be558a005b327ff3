import { sql } from 'kysely';
import { type Db, dialectOf } from '../../../core/db/database.js';

/**
 * SQL of the fan-out: a change stores its events only (webhooks.emit.commands.ts); the workers turn each
 * into one queued delivery per endpoint that listens. Cross-account by design, like the delivery
 * queue: one fan-out serves every account, and every row it writes carries its event's account.
 */

/**
 * Claims up to `limit` events still to fan out, oldest first, marks them fanned out and returns
 * their ids: call it in the transaction that writes their deliveries, so both commit or neither
 * does. PostgreSQL: `for update skip locked`, so concurrent workers claim disjoint events;
 * SQLite: one write transaction at a time.
 */
export async function claimEventsToFanOutOfAllAccounts(trx: Db, limit: number): Promise<number[]> {
  const rows = await trx
    .updateTable('webhook_events')
    .set({ fanout_pending: 0 })
    .where('id', 'in', (eb) => {
      const pending = eb
        .selectFrom('webhook_events')
        .select('id')
        .where('fanout_pending', '=', 1)
        .orderBy('id')
        .limit(limit);
      return dialectOf(trx) === 'postgres' ? pending.forUpdate().skipLocked() : pending;
    })
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/**
 * Queues the deliveries of claimed events, in one statement that never brings a row to Node: one
 * per enabled endpoint of the event's account that listens for its type (`event_types` null, or
 * the JSON array holds it) and existed when the event happened (an endpoint created since gets
 * later events only). Each is due, and dated, when its event happened, as if written with it;
 * ids follow the events' order. Returns how many were queued.
 */
export async function insertDeliveriesOfEvents(trx: Db, eventIds: number[]): Promise<number> {
  if (eventIds.length === 0) return 0;
  const listens =
    dialectOf(trx) === 'postgres'
      ? sql<boolean>`jsonb_build_array(e.type) <@ w.event_types::jsonb`
      : sql<boolean>`exists (select 1 from json_each(w.event_types) as t where t.value = e.type)`;
  const result = await trx
    .insertInto('webhook_deliveries')
    .columns(['account_id', 'endpoint_id', 'event_id', 'status', 'next_attempt_at', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('webhook_events as e')
        .innerJoin('webhook_endpoints as w', 'w.account_id', 'e.account_id')
        .select([
          'e.account_id',
          'w.id',
          'e.id as event_id',
          sql.lit('queued').as('status'),
          'e.created_at as next_attempt_at',
          'e.created_at',
        ])
        .where('e.id', 'in', eventIds)
        .where('w.disabled_at', 'is', null)
        .whereRef('w.created_at', '<=', 'e.created_at')
        .where((w) => w.or([w('w.event_types', 'is', null), listens]))
        .orderBy('e.id')
        .orderBy('w.id'),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}
