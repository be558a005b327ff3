import type { Generated } from 'kysely';

/** The tables of Idempotency-Key, SCIM tokens, webhooks. */

/** A Customer API request made with an `Idempotency-Key` (migration 0010). */
export interface IdempotencyKeysTable {
  id: Generated<number>;
  account_id: number;
  api_key_id: number;
  key: string;
  fingerprint: string;
  state: 'running' | 'done';
  locked_until: number;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  created_at: number;
  expires_at: number;
}

/** An account's SCIM bearer tokens (migration 0013): like API keys, only the hash is kept. */
export interface ScimTokensTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** `vgs_` and the next 8 characters, shown in lists to recognise a token. */
  prefix: string;
  /** SHA-256 of the whole token, hex. */
  secret_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A receiver of an account's webhooks (migration 0012). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  account_id: number;
  url: string;
  description: string;
  /** JSON array of event types; null: every event. */
  event_types: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  disabled_at: number | null;
  disabled_reason: WebhookDisabledReason | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

export type WebhookDisabledReason = 'manual' | 'failing' | 'gone';

/** One event of an account, as signed and sent (migration 0012). */
export interface WebhookEventsTable {
  id: Generated<number>;
  account_id: number;
  message_id: string;
  type: string;
  payload: string;
  created_at: number;
  /** 1 until a worker has written the event's deliveries (migration 0014); 0 after, and for test events. */
  fanout_pending: Generated<number>;
}

export type WebhookDeliveryStatus = 'queued' | 'sending' | 'succeeded' | 'failed' | 'cancelled';

/** One event to one endpoint: the durable queue the workers claim from (migration 0012). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  account_id: number;
  endpoint_id: number;
  event_id: number;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: number;
  locked_until: number | null;
  last_attempt_at: number | null;
  response_status: number | null;
  response_excerpt: string | null;
  last_error: string | null;
  created_at: number;
  succeeded_at: number | null;
}

export interface IntegrationsTables {
  scim_tokens: ScimTokensTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
