import type { Insertable, Updateable } from 'kysely';
import { countRows } from '../../../core/db/count.js';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { prepared } from '../../../core/db/prepared.js';
import type {
  WebhookDeliveriesTable,
  WebhookDisabledReason,
  WebhookEndpointsTable,
  WebhookEventsTable,
} from '../../../core/db/schema.js';

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

/**
 * Serializes the creation of the account's endpoints until the transaction ends, so a count read
 * after it holds (the endpoint limit). PostgreSQL: the account's row, `for no key update` (it
 * does not block the foreign-key checks of other writes); SQLite: the write transaction is.
 */
export async function lockEndpointsOfAccount(trx: Db, accountId: number): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forNoKeyUpdate().execute();
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

export function countEndpoints(db: Db, accountId: number): Promise<number> {
  return countRows(db.selectFrom('webhook_endpoints').where('account_id', '=', accountId));
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

export function countDeliveries(db: Db, accountId: number, endpointId: number): Promise<number> {
  return countRows(
    db
      .selectFrom('webhook_deliveries')
      .where('account_id', '=', accountId)
      .where('endpoint_id', '=', endpointId),
  );
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
