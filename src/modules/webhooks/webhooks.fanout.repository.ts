import { type Db, dialectOf } from '../../db/database.js';

/**
 * SQL of the fan-out: a change stores its events only (webhooks.emit.ts); the workers turn each
 * into one queued delivery per endpoint that listens. Cross-account by design, like the delivery
 * queue: one fan-out serves every account, and every row it writes carries its event's account.
 */

/** An event claimed for fan-out. */
export interface EventToFanOut {
  id: number;
  account_id: number;
  type: string;
  created_at: number;
}

/**
 * Claims up to `limit` events still to fan out, oldest first, and marks them fanned out: call it
 * in the transaction that writes their deliveries, so both commit or neither does. PostgreSQL:
 * `for update skip locked`, so concurrent workers claim disjoint events; SQLite: one write
 * transaction at a time.
 */
export async function claimEventsToFanOutOfAllAccounts(trx: Db, limit: number): Promise<EventToFanOut[]> {
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
    .returning(['id', 'account_id', 'type', 'created_at'])
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

export interface ListeningEndpoint {
  id: number;
  account_id: number;
  event_types: string | null;
  created_at: number;
}

/** The enabled endpoints of these accounts, by id. */
export function enabledEndpointsOfAccounts(trx: Db, accountIds: number[]): Promise<ListeningEndpoint[]> {
  if (accountIds.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'account_id', 'event_types', 'created_at'])
    .where('account_id', 'in', accountIds)
    .where('disabled_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** One delivery to queue: due, and dated, when its event happened (as if written with it). */
export interface FannedOutDelivery {
  account_id: number;
  endpoint_id: number;
  event_id: number;
  at: number;
}

export async function insertFannedOutDeliveries(trx: Db, rows: FannedOutDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('webhook_deliveries')
    .values(
      rows.map((r) => ({
        account_id: r.account_id,
        endpoint_id: r.endpoint_id,
        event_id: r.event_id,
        status: 'queued' as const,
        next_attempt_at: r.at,
        created_at: r.at,
      })),
    )
    .execute();
}
