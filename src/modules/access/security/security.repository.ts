import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import type { AccountSecurityTable } from '../../../core/db/schema.js';

export type SecurityRow = Selectable<AccountSecurityTable>;

/** The account's security settings row, if one was ever written (none: the defaults). */
export function findSecurityRow(db: Db, accountId: number): Promise<SecurityRow | undefined> {
  return db.selectFrom('account_security').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** Writes some settings, making the row with the defaults for the rest when it is the first change. */
export async function upsertSecurityRow(
  db: Db,
  accountId: number,
  patch: Omit<Updateable<AccountSecurityTable>, 'account_id'> & { updated_at: number },
): Promise<void> {
  await db
    .insertInto('account_security')
    .values({ account_id: accountId, ...patch })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(patch))
    .execute();
}
