import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import { countRows } from '../../../core/db/count.js';
import type { Db } from '../../../core/db/database.js';
import { prepared } from '../../../core/db/prepared.js';
import type { ApiKeysTable, DB } from '../../../core/db/schema.js';
import type { ListWindow } from '../../../core/pagination.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function insertKey(
  db: Db,
  accountId: number,
  values: Omit<Insertable<ApiKeysTable>, 'account_id'>,
): Promise<ApiKeyRow> {
  return db
    .insertInto('api_keys')
    .values({ ...values, account_id: accountId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// Cross-account by design: the secret alone identifies the key, and so the request's account.
const byHash = prepared((db: Db, p: { hash: string }) =>
  db.selectFrom('api_keys').selectAll().where('secret_hash', '=', p.hash),
);

export function findKeyByHash(db: Db, hash: string): Promise<ApiKeyRow | undefined> {
  return byHash.executeTakeFirst(db, { hash });
}

/** The key with this id, if it is this account's. */
const keyOfAccount = (accountId: number, keyId: number) => (eb: ExpressionBuilder<DB, 'api_keys'>) =>
  eb.and([eb('account_id', '=', accountId), eb('id', '=', keyId)]);

export function findKey(db: Db, accountId: number, keyId: number): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where(keyOfAccount(accountId, keyId)).executeTakeFirst();
}

/** Operator-wide: the account of a key named by its id alone (`vigil key revoke --id`). */
export async function findAccountIdOfAnyKey(db: Db, keyId: number): Promise<number | undefined> {
  const row = await db.selectFrom('api_keys').select('account_id').where('id', '=', keyId).executeTakeFirst();
  return row?.account_id;
}

/** The account's keys by id: all of them, or the window `[offset, offset + limit)`. */
export function listKeys(db: Db, accountId: number, window?: ListWindow): Promise<ApiKeyRow[]> {
  let query = db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id');
  if (window) query = query.limit(window.limit).offset(window.offset);
  return query.execute();
}

export function countKeys(db: Db, accountId: number): Promise<number> {
  return countRows(db.selectFrom('api_keys').where('account_id', '=', accountId));
}

export function updateKey(
  db: Db,
  accountId: number,
  keyId: number,
  changes: Partial<Pick<ApiKeyRow, 'revoked_at' | 'rate_limit' | 'expires_at'>>,
): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set(changes)
    .where(keyOfAccount(accountId, keyId))
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records last-use times in one transaction; a time never moves backwards.
 * Cross-account by design: one batch holds the keys of every account that made requests.
 */
export async function recordKeysLastUsedOfAllAccounts(db: Db, times: Map<number, number>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [keyId, at] of times) {
      await trx
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', keyId)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
    }
  });
}
