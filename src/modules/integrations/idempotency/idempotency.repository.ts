import type { Db } from '../../../core/db/database.js';

/**
 * SQL of the requests made with an `Idempotency-Key` (migration 0010). Account and API key
 * first: a key is only ever looked up within the API key that sent it.
 */

export interface NewIdempotentRequest {
  key: string;
  fingerprint: string;
  now: number;
  lockedUntil: number;
  expiresAt: number;
}

/** Claims the key for a new request; undefined when the API key already used it. */
export async function claimIdempotencyKey(
  db: Db,
  accountId: number,
  apiKeyId: number,
  request: NewIdempotentRequest,
): Promise<number | undefined> {
  const row = await db
    .insertInto('idempotency_keys')
    .values({
      account_id: accountId,
      api_key_id: apiKeyId,
      key: request.key,
      fingerprint: request.fingerprint,
      state: 'running',
      locked_until: request.lockedUntil,
      created_at: request.now,
      expires_at: request.expiresAt,
    })
    .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

export function idempotentRequest(db: Db, accountId: number, apiKeyId: number, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .select([
      'id',
      'fingerprint',
      'state',
      'locked_until',
      'response_status',
      'response_headers',
      'response_body',
      'expires_at',
    ])
    .where('account_id', '=', accountId)
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Takes over a request whose lease ran out (its process died): true when this caller got it. */
export async function takeOverIdempotencyKey(
  db: Db,
  accountId: number,
  id: number,
  expectedLockedUntil: number,
  lockedUntil: number,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ locked_until: lockedUntil })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('locked_until', '=', expectedLockedUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function storeIdempotentResponse(
  db: Db,
  accountId: number,
  id: number,
  response: { status: number; headers: Record<string, string>; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      state: 'done',
      response_status: response.status,
      response_headers: JSON.stringify(response.headers),
      response_body: response.body,
    })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** Forgets one request (it failed on the server's side, or it expired): the key may be used again. */
export async function releaseIdempotencyKey(db: Db, accountId: number, id: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** The scheduler's clean-up: every account's expired keys, a batch at a time. Returns how many. */
export async function deleteExpiredIdempotencyKeysOfAllAccounts(db: Db, now: number, limit: number) {
  // Cross-account by design: one clean-up serves every account.
  const expired = db.selectFrom('idempotency_keys').select('id').where('expires_at', '<=', now).limit(limit);
  const result = await db.deleteFrom('idempotency_keys').where('id', 'in', expired).executeTakeFirst();
  return Number(result.numDeletedRows);
}
