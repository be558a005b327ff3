import type { Db } from '../core/db/database.js';
import {
  claimEventsToFanOutOfAllAccounts,
  insertDeliveriesOfEvents,
} from '../modules/integrations/webhooks/webhooks.fanout.repository.js';

/** Deliveries one fan-out transaction writes at most (when every account is at its endpoint limit). */
export const FANOUT_DELIVERIES_PER_BATCH = 500;

/** How many events one batch claims: at most FANOUT_DELIVERIES_PER_BATCH deliveries, one event at least. */
export function eventsPerFanOutBatch(maxEndpoints: number): number {
  return Math.max(1, Math.min(500, Math.floor(FANOUT_DELIVERIES_PER_BATCH / maxEndpoints)));
}

/**
 * Fans out one batch of events, oldest first, in one transaction: claims them, and queues one
 * delivery per endpoint enabled and listening now (webhooks.fanout.repository.ts), in SQL. A
 * crash before the commit leaves the events to fan out again and no delivery; after it, the
 * events are done and their deliveries queued: never both, never neither. Small batches keep
 * each transaction (and, on SQLite, the write lock it holds) short, so requests' writes
 * interleave with a long backlog; no row comes to Node, so the event loop is free meanwhile.
 */
export async function fanOutWebhookEvents(
  db: Db,
  eventsPerBatch: number,
): Promise<{ events: number; deliveries: number; full: boolean }> {
  return db.transaction().execute(async (trx) => {
    // Cross-account by design: one fan-out serves every account; each row keeps its event's account.
    const events = await claimEventsToFanOutOfAllAccounts(trx, eventsPerBatch);
    if (events.length === 0) return { events: 0, deliveries: 0, full: false };
    const deliveries = await insertDeliveriesOfEvents(trx, events);
    return { events: events.length, deliveries, full: events.length === eventsPerBatch };
  });
}
