import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the key is the base64 part of
 * a `whsec_` secret; the signed content is `<webhook-id>.<webhook-timestamp>.<body>`; the
 * signature is `v1,` + base64 of its HMAC-SHA256. During a rotation's grace period a delivery
 * carries one signature per secret, separated by a space.
 */

export const SECRET_PREFIX = 'whsec_';

/** A new secret: `whsec_` + base64 of 32 random bytes (the specification asks 24 to 64). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** `msg_` + 24 random base64url characters: the `webhook-id` of an event, stable across retries. */
export function generateMessageId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`;
}

export function signatureOf(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers of one attempt, signed with each of `secrets`. */
export function webhookHeaders(
  secrets: readonly string[],
  messageId: string,
  timestampSeconds: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signatureOf(s, messageId, timestampSeconds, body)).join(' '),
  };
}
