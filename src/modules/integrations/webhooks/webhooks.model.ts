import type { WebhookAllowList } from '../../../core/config.js';
import type { FieldErrorCollector } from '../../../core/errors.js';
import { checkDescription } from '../../../core/fields.js';
import { refusedHost } from './webhooks.addresses.service.js';
import { isWebhookEventType, type WebhookEventType } from './webhooks.catalogue.model.js';

/** The rules of an endpoint's fields: what its URL, filter and description may be. */

/** What the operator allows endpoints to be (config.webhooks). */
export interface WebhookPolicy {
  /** `http:` URLs besides `https:`. */
  allowHttp: boolean;
  /** The only non-public networks and hosts endpoints may point to (see webhooks.addresses.service.ts). */
  allowedNetworks: WebhookAllowList;
  /** Endpoints one account may have, disabled ones included. */
  maxEndpoints: number;
}

export const URL_MAX = 2000;
export const DESCRIPTION_MAX = 500;

export function checkUrl(errors: FieldErrorCollector, value: unknown, policy: WebhookPolicy): string {
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
    errors.add(
      'url',
      policy.allowHttp
        ? 'must be an http or https URL'
        : 'must be an https URL (http only where the operator sets WEBHOOKS_ALLOW_HTTP=on and restarts Vigil)',
    );
  }
  if (url.username || url.password) errors.add('url', 'must not contain a user name or password');
  const refused = refusedHost(url, policy.allowedNetworks);
  if (refused) errors.add('url', refused);
  return url.href;
}

export function checkEventTypes(errors: FieldErrorCollector, value: unknown): string | null {
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

export function checkEndpointDescription(errors: FieldErrorCollector, value: unknown): string {
  const text = checkDescription(errors, 'description', value);
  if ([...text].length > DESCRIPTION_MAX)
    errors.add('description', `must be at most ${DESCRIPTION_MAX} characters`);
  return text;
}
