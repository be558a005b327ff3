import type { Db } from '../../../core/db/database.js';
import { slices } from '../../../core/db/id-slices.js';
import { iso } from '../../../core/time.js';
import type { WebhookEventType } from './webhooks.catalogue.model.js';
import { enabledEndpointsOfAccount, insertEvents } from './webhooks.repository.js';
import { generateMessageId } from './webhooks.signing.model.js';

/** One event a change emits: its type and its `data` (the Customer API's representation). */
export interface WebhookEventInput {
  type: WebhookEventType;
  data: unknown;
}

/** The events, or a function that makes them: called only when an enabled endpoint listens. */
export type WebhookEvents =
  | readonly WebhookEventInput[]
  | (() => readonly WebhookEventInput[] | Promise<readonly WebhookEventInput[]>);

/** The stored row of one event: its id for `webhook-id`, and the body as every attempt sends it. */
export function eventRow(event: WebhookEventInput, now: number) {
  return {
    message_id: generateMessageId(),
    type: event.type,
    payload: JSON.stringify({ type: event.type, timestamp: iso(now), data: event.data }),
    created_at: now,
  };
}

/** Rows per insert statement (SQLite binds at most 32,766 values). */
const EVENTS_PER_STATEMENT = 500;

type Listener = { id: number; types: Set<string> | null };

async function listenersOf(db: Db, accountId: number): Promise<Listener[]> {
  const rows = await enabledEndpointsOfAccount(db, accountId);
  return rows.map((r) => ({
    id: r.id,
    types: r.event_types === null ? null : new Set(JSON.parse(r.event_types) as string[]),
  }));
}

const listening = (endpoints: Listener[], type: string) =>
  endpoints.filter((e) => e.types === null || e.types.has(type)).map((e) => e.id);

/**
 * Whether an enabled endpoint of the account listens for any of `types` (one indexed read): a
 * service that must read something before its change to describe it (a group's members before a
 * replacement) asks first.
 */
export async function webhooksListen(
  db: Db,
  accountId: number,
  types: readonly WebhookEventType[],
): Promise<boolean> {
  const endpoints = await listenersOf(db, accountId);
  return types.some((type) => listening(endpoints, type).length > 0);
}

/**
 * Emits webhook events of the account: call it INSIDE the transaction that makes the change
 * (an outbox), so the events exist exactly when the change does. Each event some enabled
 * endpoint listens for is stored once, waiting for its fan-out: the webhook workers write one
 * queued delivery per listening endpoint later (workers/webhook-fanout.ts), so the change's
 * cost does not grow with the number of endpoints. An account without endpoints costs one
 * indexed read (and `events`, when a function, is never called). Returns how many events were
 * stored.
 */
export async function emitWebhookEvents(
  trx: Db,
  accountId: number,
  events: WebhookEvents,
  now = Date.now(),
): Promise<number> {
  if (Array.isArray(events) && events.length === 0) return 0;
  const endpoints = await listenersOf(trx, accountId);
  if (endpoints.length === 0) return 0;
  const list = typeof events === 'function' ? await events() : (events as readonly WebhookEventInput[]);
  const wanted = list.filter((event) => listening(endpoints, event.type).length > 0);
  for (const slice of slices(wanted, EVENTS_PER_STATEMENT)) {
    await insertEvents(
      trx,
      accountId,
      slice.map((event) => ({ ...eventRow(event, now), fanout_pending: 1 })),
    );
  }
  return wanted.length;
}
