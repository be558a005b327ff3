import { type Selectable, sql } from 'kysely';
import { byName } from '../../../core/db/collation.js';
import { countRows } from '../../../core/db/count.js';
import type { Db } from '../../../core/db/database.js';
import type { AccountsTable } from '../../../core/db/schema.js';

export type AccountRow = Selectable<AccountsTable>;

export function insertAccount(db: Db, name: string, now: number): Promise<AccountRow> {
  return db
    .insertInto('accounts')
    .values({ name, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findAccount(db: Db, accountId: number): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
}

/** Accounts whose name contains `pattern` (a LIKE pattern with `\` escapes), by name. */
function matching(db: Db, pattern: string | undefined) {
  let query = db.selectFrom('accounts');
  if (pattern !== undefined) query = query.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
  return query;
}

/** Operator-wide: accounts of the whole service whose name matches, by name. */
export function searchAllAccounts(
  db: Db,
  pattern: string | undefined,
  limit: number,
  offset: number,
): Promise<AccountRow[]> {
  return matching(db, pattern)
    .selectAll()
    .orderBy(byName(db, 'name'))
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Operator-wide: how many accounts of the whole service match. */
export async function countAllAccounts(db: Db, pattern: string | undefined): Promise<number> {
  return countRows(matching(db, pattern));
}

export function updateAccountName(
  db: Db,
  accountId: number,
  name: string,
  now: number,
): Promise<AccountRow | undefined> {
  return db
    .updateTable('accounts')
    .set({ name, updated_at: now })
    .where('id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
}
