import type { Db } from '../db/database.js';
import { slices } from '../db/id-slices.js';
import {
  claimEventsToFanOutOfAllAccounts,
  type EventToFanOut,
  enabledEndpointsOfAccounts,
  type FannedOutDelivery,
  insertFannedOutDeliveries,
  type ListeningEndpoint,
} from '../modules/webhooks/webhooks.fanout.repository.js';

/** Deliveries one fan-out transaction writes at most (when every account is at its endpoint limit). */
export const FANOUT_DELIVERIES_PER_BATCH = 1000;
/** Rows per insert statement (SQLite binds at most 32,766 values). */
const DELIVERIES_PER_STATEMENT = 500;

/** How many events one batch claims: at most FANOUT_DELIVERIES_PER_BATCH deliveries, one event at least. */
export function eventsPerFanOutBatch(maxEndpoints: number): number {
  return Math.max(1, Math.min(500, Math.floor(FANOUT_DELIVERIES_PER_BATCH / maxEndpoints)));
}

/**
 * The deliveries of these events: one per enabled endpoint of the event's account that listens
 * for its type and existed when it happened (an endpoint created since gets later events only).
 */
export function deliveriesOf(events: EventToFanOut[], endpoints: ListeningEndpoint[]): FannedOutDelivery[] {
  const byAccount = new Map<number, Array<ListeningEndpoint & { types: Set<string> | null }>>();
  for (const endpoint of endpoints) {
    const types =
      endpoint.event_types === null ? null : new Set(JSON.parse(endpoint.event_types) as string[]);
    const list = byAccount.get(endpoint.account_id) ?? [];
    list.push({ ...endpoint, types });
    byAccount.set(endpoint.account_id, list);
  }
  return events.flatMap((event) =>
    (byAccount.get(event.account_id) ?? [])
      .filter((e) => e.created_at <= event.created_at && (e.types === null || e.types.has(event.type)))
      .map((e) => ({
        account_id: event.account_id,
        endpoint_id: e.id,
        event_id: event.id,
        at: event.created_at,
      })),
  );
}

/**
 * Fans out one batch of events, oldest first, in one transaction: claims them, reads the
 * endpoints of their accounts as they are now, queues their deliveries. A crash before the
 * commit leaves the events to fan out again and no delivery; after it, the events are done and
 * their deliveries queued: never both, never neither. Small batches keep each transaction (and,
 * on SQLite, the write lock it holds) short, so requests' writes interleave with a long backlog.
 */
export async function fanOutWebhookEvents(
  db: Db,
  eventsPerBatch: number,
): Promise<{ events: number; deliveries: number; full: boolean }> {
  return db.transaction().execute(async (trx) => {
    // Cross-account by design: one fan-out serves every account; each row keeps its event's account.
    const events = await claimEventsToFanOutOfAllAccounts(trx, eventsPerBatch);
    if (events.length === 0) return { events: 0, deliveries: 0, full: false };
    const accounts = [...new Set(events.map((e) => e.account_id))];
    const deliveries = deliveriesOf(events, await enabledEndpointsOfAccounts(trx, accounts));
    for (const part of slices(deliveries, DELIVERIES_PER_STATEMENT))
      await insertFannedOutDeliveries(trx, part);
    return { events: events.length, deliveries: deliveries.length, full: events.length === eventsPerBatch };
  });
}
