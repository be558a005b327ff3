import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AccountsTable } from '../../db/schema.js';

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

export function listAccounts(db: Db): Promise<AccountRow[]> {
  return db.selectFrom('accounts').selectAll().orderBy('id').execute();
}
