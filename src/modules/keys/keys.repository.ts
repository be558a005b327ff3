import type { Insertable, Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import type { Db } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { ApiKeysTable } from '../../db/schema.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function insertKey(db: Db, values: Insertable<ApiKeysTable>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(values).returningAll().executeTakeFirstOrThrow();
}

/** The key with this secret hash, of any account: this is how a request finds its account. */
const byHash = prepared((db: Db, p: { hash: string }) =>
  db.selectFrom('api_keys').selectAll().where('secret_hash', '=', p.hash),
);

export function findKeyByHash(db: Db, hash: string): Promise<ApiKeyRow | undefined> {
  return byHash.executeTakeFirst(db, { hash });
}

export function findKey(db: Db, keyId: number): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
}

export function listKeys(db: Db, accountId: number): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

/** Keys of the account that still work: not revoked, not expired. */
export function countActiveKeys(db: Db, accountId: number, now: number): Promise<number> {
  return countRows(
    db
      .selectFrom('api_keys')
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)])),
  );
}

export function updateKey(
  db: Db,
  keyId: number,
  changes: Partial<Pick<ApiKeyRow, 'revoked_at' | 'rate_limit' | 'expires_at'>>,
): Promise<ApiKeyRow | undefined> {
  return db.updateTable('api_keys').set(changes).where('id', '=', keyId).returningAll().executeTakeFirst();
}

/** Records last-use times in one transaction; a time never moves backwards. */
export async function recordKeysLastUsed(db: Db, times: Map<number, number>): Promise<void> {
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
