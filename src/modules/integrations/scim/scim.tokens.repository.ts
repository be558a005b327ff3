import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import { prepared } from '../../../core/db/prepared.js';
import type { ScimTokensTable } from '../../../core/db/schema.js';

export type ScimTokenRow = Selectable<ScimTokensTable>;

export function insertScimToken(
  db: Db,
  accountId: number,
  values: Omit<Insertable<ScimTokensTable>, 'account_id'>,
): Promise<ScimTokenRow> {
  return db
    .insertInto('scim_tokens')
    .values({ ...values, account_id: accountId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// Cross-account by design: the secret alone identifies the token, and so the request's account.
const byHash = prepared((db: Db, p: { hash: string }) =>
  db.selectFrom('scim_tokens').selectAll().where('secret_hash', '=', p.hash),
);

export function findScimTokenByHash(db: Db, hash: string): Promise<ScimTokenRow | undefined> {
  return byHash.executeTakeFirst(db, { hash });
}

/** The account's tokens, newest first, revoked ones included. */
export function listScimTokens(db: Db, accountId: number): Promise<ScimTokenRow[]> {
  return db
    .selectFrom('scim_tokens')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes the account's token (the first revocation's time stays); undefined when there is none. */
export async function revokeScimTokenRow(
  db: Db,
  accountId: number,
  tokenId: number,
  now: number,
): Promise<ScimTokenRow | undefined> {
  await db
    .updateTable('scim_tokens')
    .set({ revoked_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', tokenId)
    .where('revoked_at', 'is', null)
    .execute();
  return db
    .selectFrom('scim_tokens')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', tokenId)
    .executeTakeFirst();
}

/**
 * Records last-use times in one transaction; a time never moves backwards.
 * Cross-account by design: one batch holds the tokens of every account that made requests.
 */
export async function recordScimTokensLastUsedOfAllAccounts(
  db: Db,
  times: Map<number, number>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [tokenId, at] of times) {
      await trx
        .updateTable('scim_tokens')
        .set({ last_used_at: at })
        .where('id', '=', tokenId)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
    }
  });
}
