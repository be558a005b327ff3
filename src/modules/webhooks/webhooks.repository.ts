import { type Insertable, sql, type Updateable } from 'kysely';
import { type Db, dialectOf } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type {
  WebhookDeliveriesTable,
  WebhookDisabledReason,
  WebhookEndpointsTable,
  WebhookEventsTable,
} from '../../db/schema.js';

/** SQL of webhook endpoints, events and deliveries; every function takes the account first. */

export type EndpointRow = {
  id: number;
  account_id: number;
  url: string;
  description: string;
  event_types: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  disabled_at: number | null;
  disabled_reason: WebhookDisabledReason | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
};

const enabledEndpoints = prepared((db, p: { accountId: number }) =>
  db
    .selectFrom('webhook_endpoints')
    .select(['id', 'event_types'])
    .where('account_id', '=', p.accountId)
    .where('disabled_at', 'is', null),
);

/** The account's enabled endpoints and their filters: what every change reads (one index look-up). */
export function enabledEndpointsOfAccount(
  db: Db,
  accountId: number,
): Promise<Array<{ id: number; event_types: string | null }>> {
  return enabledEndpoints.execute(db, { accountId });
}

export async function insertEndpoint(
  db: Db,
  accountId: number,
  values: Omit<Insertable<WebhookEndpointsTable>, 'account_id'>,
): Promise<EndpointRow> {
  return (await db
    .insertInto('webhook_endpoints')
    .values({ ...values, account_id: accountId })
    .returningAll()
    .executeTakeFirstOrThrow()) as EndpointRow;
}

export async function findEndpoint(
  db: Db,
  accountId: number,
  endpointId: number,
): Promise<EndpointRow | undefined> {
  return (await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .executeTakeFirst()) as EndpointRow | undefined;
}

export async function listEndpoints(
  db: Db,
  accountId: number,
  window?: { limit: number; offset: number },
): Promise<EndpointRow[]> {
  let query = db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id');
  if (window) query = query.limit(window.limit).offset(window.offset);
  return (await query.execute()) as EndpointRow[];
}

export async function countEndpoints(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateEndpointRow(
  db: Db,
  accountId: number,
  endpointId: number,
  values: Updateable<WebhookEndpointsTable>,
): Promise<EndpointRow | undefined> {
  return (await db
    .updateTable('webhook_endpoints')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .returningAll()
    .executeTakeFirst()) as EndpointRow | undefined;
}

/** Deletes an endpoint and its delivery log (the events stay for the account's other endpoints). */
export async function deleteEndpointRow(db: Db, accountId: number, endpointId: number): Promise<boolean> {
  await db
    .deleteFrom('webhook_deliveries')
    .where('account_id', '=', accountId)
    .where('endpoint_id', '=', endpointId)
    .execute();
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Inserts events of the account; returns their ids in order. */
export async function insertEvents(
  db: Db,
  accountId: number,
  rows: Array<Omit<Insertable<WebhookEventsTable>, 'account_id'>>,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('webhook_events')
    .values(rows.map((r) => ({ ...r, account_id: accountId })))
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

export async function insertDeliveries(
  db: Db,
  accountId: number,
  rows: Array<Pick<Insertable<WebhookDeliveriesTable>, 'endpoint_id' | 'event_id'>>,
  now: number,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values(
      rows.map((r) => ({
        ...r,
        account_id: accountId,
        status: 'queued' as const,
        next_attempt_at: now,
        created_at: now,
      })),
    )
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

export interface DeliveryRow {
  id: number;
  endpoint_id: number;
  event_id: number;
  message_id: string;
  type: string;
  status: WebhookDeliveriesTable['status'];
  attempts: number;
  next_attempt_at: number;
  last_attempt_at: number | null;
  response_status: number | null;
  response_excerpt: string | null;
  last_error: string | null;
  created_at: number;
  succeeded_at: number | null;
}

function deliveries(db: Db, accountId: number, endpointId: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', (j) =>
      j.onRef('e.id', '=', 'd.event_id').onRef('e.account_id', '=', 'd.account_id'),
    )
    .where('d.account_id', '=', accountId)
    .where('d.endpoint_id', '=', endpointId);
}

const deliveryColumns = [
  'd.id',
  'd.endpoint_id',
  'd.event_id',
  'e.message_id',
  'e.type',
  'd.status',
  'd.attempts',
  'd.next_attempt_at',
  'd.last_attempt_at',
  'd.response_status',
  'd.response_excerpt',
  'd.last_error',
  'd.created_at',
  'd.succeeded_at',
] as const;

/** An endpoint's deliveries, newest first. */
export function listDeliveries(
  db: Db,
  accountId: number,
  endpointId: number,
  window: { limit: number; offset: number },
): Promise<DeliveryRow[]> {
  return deliveries(db, accountId, endpointId)
    .select(deliveryColumns)
    .orderBy('d.id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
}

export async function countDeliveries(db: Db, accountId: number, endpointId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findDelivery(
  db: Db,
  accountId: number,
  endpointId: number,
  deliveryId: number,
): Promise<DeliveryRow | undefined> {
  return deliveries(db, accountId, endpointId)
    .select(deliveryColumns)
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

/** Queued deliveries of the account's endpoint, cancelled (the endpoint was disabled). */
export async function cancelQueuedDeliveries(db: Db, accountId: number, endpointId: number, reason: string) {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', last_error: reason, locked_until: null })
    .where('account_id', '=', accountId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'queued')
    .execute();
}

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
