import { createHash } from 'node:crypto';
import type { Db } from '../../../core/db/database.js';
import { idempotencyKeyReused, requestInProgress } from '../../../core/errors.js';
import {
  claimIdempotencyKey,
  idempotentRequest,
  releaseIdempotencyKey,
  storeIdempotentResponse,
  takeOverIdempotencyKey,
} from './idempotency.repository.js';

/**
 * `Idempotency-Key` on the Customer API's POST, PATCH and DELETE, as Stripe defines it
 * (docs/integrations.md): the first request with a key runs; the same key with the same request
 * within 24 hours gets that first response again (status, body, the headers that describe it)
 * without the work being done again; the same key with another request is a 422; a request whose
 * first is still running is a 409. Keys belong to the API key that sent them.
 */

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** The methods a key makes safe to retry (PUT replaces, so repeating it is harmless already). */
export const IDEMPOTENT_METHODS: readonly string[] = ['POST', 'PATCH', 'DELETE'];
/** How long a first response is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a running request holds its key: past this (the server's request timeout and then
 * some), its process is taken to have died and a retry runs it again.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;
export const IDEMPOTENCY_KEY_MAX = 255;
/** The response headers replayed with the body (the rest belong to each request: ids, budgets). */
export const REPLAYED_HEADERS = ['content-type', 'location', 'etag'] as const;

/** Why a key is unusable, or null: 1 to 255 visible ASCII characters (a UUID is the usual choice). */
export function idempotencyKeyProblem(key: string): string | null {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    return `must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (a UUID, say)`;
  }
  return null;
}

/** What makes two requests the same: method, path with its query, body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  const hash = createHash('sha256').update(`${method}\n${url}\n`);
  if (Buffer.isBuffer(body) || typeof body === 'string') hash.update(body);
  else if (body !== undefined) hash.update(JSON.stringify(body));
  return hash.digest('hex');
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotentStart = { run: true; id: number } | { run: false; replay: StoredResponse };

/** Claims the key for this request, or answers with the first response; throws 409 or 422. */
export async function startIdempotentRequest(
  db: Db,
  accountId: number,
  apiKeyId: number,
  props: { key: string; fingerprint: string; now?: number },
): Promise<IdempotentStart> {
  const now = props.now ?? Date.now();
  const claim = {
    key: props.key,
    fingerprint: props.fingerprint,
    now,
    lockedUntil: now + IDEMPOTENCY_LEASE_MS,
    expiresAt: now + IDEMPOTENCY_TTL_MS,
  };
  // A few rounds at most: a row can expire or be released between the claim and the read.
  for (let round = 0; round < 3; round++) {
    const id = await claimIdempotencyKey(db, accountId, apiKeyId, claim);
    if (id !== undefined) return { run: true, id };
    const earlier = await idempotentRequest(db, accountId, apiKeyId, props.key);
    if (!earlier) continue;
    if (Number(earlier.expires_at) <= now) {
      await releaseIdempotencyKey(db, accountId, Number(earlier.id));
      continue;
    }
    if (earlier.fingerprint !== props.fingerprint) throw idempotencyKeyReused();
    if (earlier.state === 'done') {
      return {
        run: false,
        replay: {
          status: Number(earlier.response_status),
          headers: JSON.parse(earlier.response_headers ?? '{}') as Record<string, string>,
          body: earlier.response_body ?? '',
        },
      };
    }
    const lockedUntil = Number(earlier.locked_until);
    if (lockedUntil > now) throw requestInProgress();
    // Its process died while running it: this request runs it again.
    if (await takeOverIdempotencyKey(db, accountId, Number(earlier.id), lockedUntil, claim.lockedUntil)) {
      return { run: true, id: Number(earlier.id) };
    }
  }
  throw requestInProgress();
}

/**
 * Keeps the first response for replays; a server-side failure (5xx) is not kept, so that a
 * retry with the same key runs the request again once the service has recovered.
 */
export async function finishIdempotentRequest(
  db: Db,
  accountId: number,
  id: number,
  response: StoredResponse | null,
): Promise<void> {
  if (response === null || response.status >= 500) await releaseIdempotencyKey(db, accountId, id);
  else await storeIdempotentResponse(db, accountId, id, response);
}
