import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { AppError, FieldErrorCollector } from '../../../core/errors.js';
import {
  fetchPage,
  type ListPage,
  type ListWindow,
  type Page,
  type PageRequest,
  readList,
} from '../../../core/pagination.js';
import { eventRow } from './webhooks.emit.commands.js';
import { checkEndpointDescription, checkEventTypes, checkUrl, type WebhookPolicy } from './webhooks.model.js';
import {
  cancelQueuedDeliveries,
  countDeliveries,
  countEndpoints,
  type DeliveryRow,
  deleteEndpointRow,
  type EndpointRow,
  findDelivery,
  findEndpoint,
  insertDeliveries,
  insertEndpoint,
  insertEvents,
  listDeliveries,
  listEndpoints,
  lockEndpointsOfAccount,
  updateEndpointRow,
} from './webhooks.repository.js';
import { generateWebhookSecret } from './webhooks.signing.model.js';

/** What the audit log shows of an endpoint; its signing secrets only as changed. */
const ENDPOINT_AUDIT = {
  fields: [
    'url',
    'description',
    'event_types',
    'disabled_at',
    'disabled_reason',
    'secret',
    'previous_secret',
  ],
  secrets: ['secret', 'previous_secret'],
};

/** After a rotation, the old secret still signs (beside the new one) for this long. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

export const endpointNotFound = () => new AppError('webhook_endpoint_not_found');
const deliveryNotFound = () => new AppError('webhook_delivery_not_found');

export type WebhookEndpoint = EndpointRow;
export type WebhookDelivery = DeliveryRow;

export interface CreateEndpointProps {
  accountId: number;
  url: unknown;
  description?: unknown;
  /** Event types, or null/absent for every event. */
  eventTypes?: unknown;
  policy: WebhookPolicy;
}

const endpointLimitReached = (max: number) =>
  new AppError('webhook_endpoint_limit_reached', {
    message: `An account may have at most ${max} webhook endpoints (disabled ones included); delete one first`,
  });

/**
 * Creates an enabled endpoint with a new secret (returned: the one time it is shown unasked),
 * unless the account has `policy.maxEndpoints` already: what one event fans out to stays bounded.
 */
export async function createEndpoint(db: Db, props: CreateEndpointProps): Promise<WebhookEndpoint> {
  const errors = new FieldErrorCollector();
  const url = checkUrl(errors, props.url, props.policy);
  const description =
    props.description === undefined ? '' : checkEndpointDescription(errors, props.description);
  const eventTypes = props.eventTypes === undefined ? null : checkEventTypes(errors, props.eventTypes);
  errors.throwIfAny();
  const { accountId, policy } = props;
  return db.transaction().execute(async (trx) => {
    // Two creates at once must not both see one place left.
    await lockEndpointsOfAccount(trx, accountId);
    if ((await countEndpoints(trx, accountId)) >= policy.maxEndpoints)
      throw endpointLimitReached(policy.maxEndpoints);
    const now = Date.now();
    const endpoint = await insertEndpoint(trx, accountId, {
      url,
      description,
      event_types: eventTypes,
      secret: generateWebhookSecret(),
      created_at: now,
      updated_at: now,
    });
    await recordAudit(trx, {
      accountId,
      action: 'webhook.created',
      object: { type: 'webhook', id: endpoint.id, label: endpoint.url },
      changes: diffFields(null, endpoint, ENDPOINT_AUDIT),
    });
    return endpoint;
  });
}

export async function getEndpoint(db: Db, accountId: number, endpointId: number): Promise<WebhookEndpoint> {
  const row = await findEndpoint(db, accountId, endpointId);
  if (!row) throw endpointNotFound();
  return row;
}

export function endpointsOfAccount(db: Db, accountId: number): Promise<WebhookEndpoint[]> {
  return listEndpoints(db, accountId);
}

/** A Customer API page of the account's endpoints, by id. */
export function findEndpoints(db: Db, accountId: number, page: PageRequest): Promise<Page<WebhookEndpoint>> {
  return fetchPage(
    page,
    () => countEndpoints(db, accountId),
    (limit, offset) => listEndpoints(db, accountId, { limit, offset }),
  );
}

/** A Customer API page of an endpoint's deliveries, newest first. */
export async function findDeliveries(
  db: Db,
  accountId: number,
  endpointId: number,
  page: PageRequest,
): Promise<Page<WebhookDelivery>> {
  await getEndpoint(db, accountId, endpointId);
  return fetchPage(
    page,
    () => countDeliveries(db, accountId, endpointId),
    (limit, offset) => listDeliveries(db, accountId, endpointId, { limit, offset }),
  );
}

export interface UpdateEndpointProps {
  accountId: number;
  endpointId: number;
  url?: unknown;
  description?: unknown;
  eventTypes?: unknown;
  /** true enables (and forgets past failures); false disables it (reason `manual`). */
  enabled?: unknown;
  policy: WebhookPolicy;
}

/** Changes the fields given; disabling cancels its queued deliveries. */
export async function updateEndpoint(db: Db, props: UpdateEndpointProps): Promise<WebhookEndpoint> {
  const errors = new FieldErrorCollector();
  const changes: Parameters<typeof updateEndpointRow>[3] = {};
  if (props.url !== undefined) changes.url = checkUrl(errors, props.url, props.policy);
  if (props.description !== undefined)
    changes.description = checkEndpointDescription(errors, props.description);
  if (props.eventTypes !== undefined) changes.event_types = checkEventTypes(errors, props.eventTypes);
  if (props.enabled !== undefined && typeof props.enabled !== 'boolean')
    errors.add('enabled', 'must be a boolean');
  errors.throwIfAny();
  const { accountId, endpointId } = props;
  return db.transaction().execute(async (trx) => {
    const current = await findEndpoint(trx, accountId, endpointId);
    if (!current) throw endpointNotFound();
    const now = Date.now();
    if (props.enabled === true && current.disabled_at !== null) {
      Object.assign(changes, { disabled_at: null, disabled_reason: null, failing_since: null });
    }
    if (props.enabled === false && current.disabled_at === null) {
      Object.assign(changes, { disabled_at: now, disabled_reason: 'manual' });
      await cancelQueuedDeliveries(trx, accountId, endpointId, 'the endpoint was disabled');
    }
    if (Object.keys(changes).length === 0) return current;
    const updated =
      (await updateEndpointRow(trx, accountId, endpointId, { ...changes, updated_at: now })) ?? current;
    await recordAudit(trx, {
      accountId,
      action: 'webhook.updated',
      object: { type: 'webhook', id: endpointId, label: updated.url },
      changes: diffFields(current, updated, ENDPOINT_AUDIT),
    });
    return updated;
  });
}

export async function deleteEndpoint(db: Db, accountId: number, endpointId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await findEndpoint(trx, accountId, endpointId);
    if (!current || !(await deleteEndpointRow(trx, accountId, endpointId))) throw endpointNotFound();
    await recordAudit(trx, {
      accountId,
      action: 'webhook.deleted',
      object: { type: 'webhook', id: endpointId, label: current.url },
    });
  });
}

/**
 * Makes a new secret. For ROTATION_GRACE_MS the old one still signs every delivery beside it
 * (two signatures in `webhook-signature`), so receivers can switch without losing a message.
 */
export async function rotateEndpointSecret(
  db: Db,
  accountId: number,
  endpointId: number,
): Promise<WebhookEndpoint> {
  return db.transaction().execute(async (trx) => {
    const current = await findEndpoint(trx, accountId, endpointId);
    if (!current) throw endpointNotFound();
    const now = Date.now();
    const updated = await updateEndpointRow(trx, accountId, endpointId, {
      secret: generateWebhookSecret(),
      previous_secret: current.secret,
      previous_secret_expires_at: now + ROTATION_GRACE_MS,
      updated_at: now,
    });
    // The secrets' values never: only that the signing secret changed.
    await recordAudit(trx, {
      accountId,
      action: 'webhook.secret_rotated',
      object: { type: 'webhook', id: endpointId, label: current.url },
      changes: { secret: { changed: true } },
    });
    return updated ?? current;
  });
}

/** An endpoint's deliveries, newest first. */
export async function deliveriesOfEndpoint(
  db: Db,
  accountId: number,
  endpointId: number,
  window: ListWindow,
): Promise<ListPage<WebhookDelivery>> {
  await getEndpoint(db, accountId, endpointId);
  return readList(
    window,
    () => countDeliveries(db, accountId, endpointId),
    (limit, offset) => listDeliveries(db, accountId, endpointId, { limit, offset }),
  );
}

async function queueOne(
  trx: Db,
  accountId: number,
  endpointId: number,
  eventId: number,
): Promise<WebhookDelivery> {
  const [id] = await insertDeliveries(
    trx,
    accountId,
    [{ endpoint_id: endpointId, event_id: eventId }],
    Date.now(),
  );
  const delivery = await findDelivery(trx, accountId, endpointId, id as number);
  if (!delivery) throw deliveryNotFound();
  return delivery;
}

async function enabledEndpoint(trx: Db, accountId: number, endpointId: number): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(trx, accountId, endpointId);
  if (!endpoint) throw endpointNotFound();
  if (endpoint.disabled_at !== null) throw new AppError('webhook_endpoint_disabled');
  return endpoint;
}

/** Sends a delivery's event again, as a new delivery (same `webhook-id`: receivers dedupe on it). */
export async function resendDelivery(
  db: Db,
  accountId: number,
  endpointId: number,
  deliveryId: number,
): Promise<WebhookDelivery> {
  return db.transaction().execute(async (trx) => {
    await enabledEndpoint(trx, accountId, endpointId);
    const delivery = await findDelivery(trx, accountId, endpointId, deliveryId);
    if (!delivery) throw deliveryNotFound();
    const queued = await queueOne(trx, accountId, endpointId, delivery.event_id);
    await recordAudit(trx, {
      accountId,
      action: 'webhook.delivery_resent',
      object: { type: 'webhook', id: endpointId },
      changes: { delivery_id: { from: deliveryId, to: queued.id } },
    });
    return queued;
  });
}

/** Queues a `webhook.test` event to this endpoint alone, whatever its filter. */
export async function sendTestEvent(db: Db, accountId: number, endpointId: number): Promise<WebhookDelivery> {
  return db.transaction().execute(async (trx) => {
    await enabledEndpoint(trx, accountId, endpointId);
    const now = Date.now();
    const data = { endpoint_id: endpointId, message: 'This is a test event from Vigil.' };
    const [eventId] = await insertEvents(trx, accountId, [eventRow({ type: 'webhook.test', data }, now)]);
    const queued = await queueOne(trx, accountId, endpointId, eventId as number);
    await recordAudit(trx, {
      accountId,
      action: 'webhook.test_sent',
      object: { type: 'webhook', id: endpointId },
      changes: { delivery_id: { from: null, to: queued.id } },
    });
    return queued;
  });
}
