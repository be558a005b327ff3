import type { WebhookAllowList } from '../../config.js';
import type { Db } from '../../db/database.js';
import { AppError, FieldErrorCollector } from '../../errors.js';
import { checkDescription } from '../../fields.js';
import {
  fetchPage,
  type ListPage,
  type ListWindow,
  type Page,
  type PageRequest,
  readList,
} from '../../pagination.js';
import { refusedHost } from './webhooks.addresses.js';
import { isWebhookEventType, type WebhookEventType } from './webhooks.catalogue.js';
import { eventRow } from './webhooks.emit.js';
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
  updateEndpointRow,
} from './webhooks.repository.js';
import { generateWebhookSecret } from './webhooks.signing.js';

/** What the operator allows endpoints to be (config.webhooks). */
export interface WebhookPolicy {
  /** `http:` URLs besides `https:`. */
  allowHttp: boolean;
  /** The only non-public networks and hosts endpoints may point to (see webhooks.addresses.ts). */
  allowedNetworks: WebhookAllowList;
}

/** After a rotation, the old secret still signs (beside the new one) for this long. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;
export const URL_MAX = 2000;
export const DESCRIPTION_MAX = 500;

export const endpointNotFound = () => new AppError('webhook_endpoint_not_found');
const deliveryNotFound = () => new AppError('webhook_delivery_not_found');

export type WebhookEndpoint = EndpointRow;
export type WebhookDelivery = DeliveryRow;

function checkUrl(errors: FieldErrorCollector, value: unknown, policy: WebhookPolicy): string {
  if (typeof value !== 'string') {
    errors.add('url', value === undefined || value === null ? 'is required' : 'must be a string');
    return '';
  }
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    errors.add('url', 'must be an absolute URL');
    return '';
  }
  if ([...text].length > URL_MAX) errors.add('url', `must be at most ${URL_MAX} characters`);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    errors.add('url', policy.allowHttp ? 'must be an http or https URL' : 'must be an https URL');
  }
  if (url.username || url.password) errors.add('url', 'must not contain a user name or password');
  const refused = refusedHost(url, policy.allowedNetworks);
  if (refused) errors.add('url', refused);
  return url.href;
}

function checkEventTypes(errors: FieldErrorCollector, value: unknown): string | null {
  if (value === null) return null;
  if (!Array.isArray(value)) {
    errors.add('event_types', 'must be a list of event types, or null for every event');
    return null;
  }
  const types = new Set<WebhookEventType>();
  for (const type of value) {
    if (typeof type === 'string' && isWebhookEventType(type) && type !== 'webhook.test') types.add(type);
    else errors.add('event_types', `unknown event type ${JSON.stringify(type)}`.slice(0, 200));
  }
  if (value.length === 0)
    errors.add('event_types', 'must name at least one event type, or be null for every event');
  return JSON.stringify([...types].sort());
}

function checkEndpointDescription(errors: FieldErrorCollector, value: unknown): string {
  const text = checkDescription(errors, 'description', value);
  if ([...text].length > DESCRIPTION_MAX)
    errors.add('description', `must be at most ${DESCRIPTION_MAX} characters`);
  return text;
}

export interface CreateEndpointProps {
  accountId: number;
  url: unknown;
  description?: unknown;
  /** Event types, or null/absent for every event. */
  eventTypes?: unknown;
  policy: WebhookPolicy;
}

/** Creates an enabled endpoint with a new secret (returned: the one time it is shown unasked). */
export async function createEndpoint(db: Db, props: CreateEndpointProps): Promise<WebhookEndpoint> {
  const errors = new FieldErrorCollector();
  const url = checkUrl(errors, props.url, props.policy);
  const description =
    props.description === undefined ? '' : checkEndpointDescription(errors, props.description);
  const eventTypes = props.eventTypes === undefined ? null : checkEventTypes(errors, props.eventTypes);
  errors.throwIfAny();
  const now = Date.now();
  return insertEndpoint(db, props.accountId, {
    url,
    description,
    event_types: eventTypes,
    secret: generateWebhookSecret(),
    created_at: now,
    updated_at: now,
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
    return (await updateEndpointRow(trx, accountId, endpointId, { ...changes, updated_at: now })) ?? current;
  });
}

export async function deleteEndpoint(db: Db, accountId: number, endpointId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await deleteEndpointRow(trx, accountId, endpointId))) throw endpointNotFound();
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
    return queueOne(trx, accountId, endpointId, delivery.event_id);
  });
}

/** Queues a `webhook.test` event to this endpoint alone, whatever its filter. */
export async function sendTestEvent(db: Db, accountId: number, endpointId: number): Promise<WebhookDelivery> {
  return db.transaction().execute(async (trx) => {
    await enabledEndpoint(trx, accountId, endpointId);
    const now = Date.now();
    const data = { endpoint_id: endpointId, message: 'This is a test event from Vigil.' };
    const [eventId] = await insertEvents(trx, accountId, [eventRow({ type: 'webhook.test', data }, now)]);
    return queueOne(trx, accountId, endpointId, eventId as number);
  });
}
