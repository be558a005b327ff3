import { sql, type Updateable } from 'kysely';
import { type Db, dialectOf } from '../../../core/db/database.js';
import type { WebhookDeliveriesTable, WebhookDisabledReason } from '../../../core/db/schema.js';
import type { OutboxStore } from '../../../core/outbox/outbox.js';
import { cancelQueuedDeliveries } from './webhooks.repository.js';

/**
 * SQL of the webhook workers: claiming due deliveries, reading what to send, recording outcomes.
 */

// ---- The workers' side. Cross-account by design: one queue serves every account; a claim
// carries its delivery's account and every write on it is scoped by that account too. ----

/** A worker's hold on one delivery: its attempt number fences every later write. */
export interface DeliveryClaim {
  id: number;
  accountId: number;
  attempts: number;
}

/**
 * Claims up to `limit` due deliveries, in the order they became due: queued ones whose time has
 * come, and `sending` ones whose claim ran out (a worker killed mid-delivery: at least once). As
 * the mail queue does: `for update skip locked` on PostgreSQL, one atomic UPDATE on SQLite.
 */
export async function claimDueDeliveriesOfAllAccounts(
  db: Db,
  props: { now: number; limit: number; leaseUntil: number },
): Promise<DeliveryClaim[]> {
  if (props.limit <= 0) return [];
  const rows = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: 'sending',
      attempts: eb('attempts', '+', 1),
      locked_until: props.leaseUntil,
      next_attempt_at: props.leaseUntil,
    }))
    .where('id', 'in', (eb) => {
      const due = eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where(sql<boolean>`status in ('queued', 'sending')`)
        .where('next_attempt_at', '<=', props.now)
        .where((w) => w.or([w('status', '=', 'queued'), w('locked_until', '<', props.now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(props.limit);
      return dialectOf(db) === 'postgres' ? due.forUpdate().skipLocked() : due;
    })
    .returning(['id', 'account_id', 'attempts'])
    .execute();
  return rows
    .map((r) => ({ id: r.id, accountId: r.account_id, attempts: r.attempts }))
    .sort((a, b) => a.id - b.id);
}

/** What one claimed delivery is sent from: the event as stored and its endpoint now. */
export interface DeliveryContext {
  id: number;
  account_id: number;
  endpoint_id: number;
  message_id: string;
  payload: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  disabled_at: number | null;
  failing_since: number | null;
}

export async function deliveryContexts(
  db: Db,
  claims: DeliveryClaim[],
): Promise<Map<number, DeliveryContext>> {
  if (claims.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', (j) =>
      j.onRef('e.id', '=', 'd.event_id').onRef('e.account_id', '=', 'd.account_id'),
    )
    .innerJoin('webhook_endpoints as w', (j) =>
      j.onRef('w.id', '=', 'd.endpoint_id').onRef('w.account_id', '=', 'd.account_id'),
    )
    .select([
      'd.id',
      'd.account_id',
      'd.endpoint_id',
      'e.message_id',
      'e.payload',
      'w.url',
      'w.secret',
      'w.previous_secret',
      'w.previous_secret_expires_at',
      'w.disabled_at',
      'w.failing_since',
    ])
    .where(
      'd.id',
      'in',
      claims.map((c) => c.id),
    )
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Ends a claim with these values, only while it is still ours (`sending` at our attempt). */
export async function finishDelivery(
  db: Db,
  claim: DeliveryClaim,
  values: Updateable<WebhookDeliveriesTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ ...values, locked_until: null })
    .where('account_id', '=', claim.accountId)
    .where('id', '=', claim.id)
    .where('status', '=', 'sending')
    .where('attempts', '=', claim.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The deliveries' table as the outbox works it (core/outbox/outbox.ts). */
export const webhookOutboxStore: OutboxStore<DeliveryClaim, Updateable<WebhookDeliveriesTable>> = {
  claimDue: claimDueDeliveriesOfAllAccounts,
  finish: finishDelivery,
  release: releaseDeliveryClaims,
};

/** Hands claimed deliveries never attempted back to the queue (a worker stopping). */
export async function releaseDeliveryClaims(db: Db, claims: DeliveryClaim[], now: number): Promise<void> {
  for (const claim of claims) {
    await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: 'queued',
        attempts: eb('attempts', '-', 1),
        locked_until: null,
        next_attempt_at: now,
      }))
      .where('account_id', '=', claim.accountId)
      .where('id', '=', claim.id)
      .where('status', '=', 'sending')
      .where('attempts', '=', claim.attempts)
      .execute();
  }
}

/** An attempt to the endpoint succeeded: it is no longer failing. */
export async function recordEndpointSuccess(db: Db, accountId: number, endpointId: number): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .where('failing_since', 'is not', null)
    .execute();
}

/** An attempt failed: the endpoint is failing since its first failure after the last success. */
export async function recordEndpointFailure(db: Db, accountId: number, endpointId: number, now: number) {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: now })
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .where('failing_since', 'is', null)
    .execute();
}

/** Disables an enabled endpoint for this reason and cancels its queued deliveries. */
export async function disableEndpointRow(
  db: Db,
  accountId: number,
  endpointId: number,
  reason: WebhookDisabledReason,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: now, disabled_reason: reason, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  await cancelQueuedDeliveries(db, accountId, endpointId, `the endpoint was disabled (${reason})`);
  return Number(result.numUpdatedRows) > 0;
}
