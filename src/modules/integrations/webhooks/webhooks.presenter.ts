import { iso, isoOrNull } from '../../../core/time.js';
import type { WebhookDelivery, WebhookEndpoint } from './webhooks.service.js';

/** An endpoint as the Customer API and the web interface show it (never its secret). */
export function presentEndpoint(endpoint: WebhookEndpoint, now = Date.now()) {
  const rotating =
    endpoint.previous_secret !== null &&
    endpoint.previous_secret_expires_at !== null &&
    endpoint.previous_secret_expires_at > now;
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.event_types === null ? null : (JSON.parse(endpoint.event_types) as string[]),
    enabled: endpoint.disabled_at === null,
    disabled_reason: endpoint.disabled_reason,
    disabled_at: isoOrNull(endpoint.disabled_at),
    failing_since: isoOrNull(endpoint.failing_since),
    previous_secret_expires_at: rotating ? isoOrNull(endpoint.previous_secret_expires_at) : null,
    created_at: iso(endpoint.created_at),
    updated_at: iso(endpoint.updated_at),
  };
}

/** An endpoint with its secret: the answer to a create or a rotation (and the admin's reveal). */
export function presentEndpointWithSecret(endpoint: WebhookEndpoint) {
  return { ...presentEndpoint(endpoint), secret: endpoint.secret };
}

/** One delivery of the log. */
export function presentDelivery(delivery: WebhookDelivery) {
  const pending = delivery.status === 'queued' || delivery.status === 'sending';
  return {
    id: delivery.id,
    webhook_id: delivery.message_id,
    event_type: delivery.type,
    status: delivery.status,
    attempts: delivery.attempts,
    created_at: iso(delivery.created_at),
    last_attempt_at: isoOrNull(delivery.last_attempt_at),
    next_attempt_at: pending ? iso(delivery.next_attempt_at) : null,
    succeeded_at: isoOrNull(delivery.succeeded_at),
    response_status: delivery.response_status,
    response_excerpt: delivery.response_excerpt,
    error: delivery.last_error,
  };
}
