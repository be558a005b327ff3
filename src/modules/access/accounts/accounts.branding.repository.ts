import type { Selectable } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import type { AccountLogosTable } from '../../../core/db/schema.js';

export type LogoRow = Selectable<AccountLogosTable>;
export type LogoFacts = Omit<LogoRow, 'data'>;

const FACTS = ['account_id', 'content_type', 'byte_size', 'sha256', 'updated_at'] as const;

export function setDisplayName(db: Db, accountId: number, displayName: string | null, now: number) {
  return db
    .updateTable('accounts')
    .set({ display_name: displayName, updated_at: now })
    .where('id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
}

/** What the account's logo is (without its bytes), if it has one. */
export function findLogoFacts(db: Db, accountId: number): Promise<LogoFacts | undefined> {
  return db.selectFrom('account_logos').select(FACTS).where('account_id', '=', accountId).executeTakeFirst();
}

/** The account's logo with its bytes (base64), if it has one. */
export function findLogo(db: Db, accountId: number): Promise<LogoRow | undefined> {
  return db.selectFrom('account_logos').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** Sets the account's logo, replacing the one it had. */
export async function upsertLogo(db: Db, row: LogoRow): Promise<void> {
  const { content_type, data, byte_size, sha256, updated_at } = row;
  await db
    .insertInto('account_logos')
    .values(row)
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({ content_type, data, byte_size, sha256, updated_at }),
    )
    .execute();
}

/** Removes the account's logo; false when it had none. */
export async function deleteLogo(db: Db, accountId: number): Promise<boolean> {
  const result = await db.deleteFrom('account_logos').where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * What employees see of these accounts: the name, display name and logo of each. Accounts are
 * given by the caller (the accounts of a batch of claimed messages, a learner's own account).
 */
export function brandingRowsOf(db: Db, accountIds: readonly number[]) {
  return db
    .selectFrom('accounts as a')
    .leftJoin('account_logos as l', 'l.account_id', 'a.id')
    .select(['a.id', 'a.name', 'a.display_name', 'l.content_type', 'l.data', 'l.sha256'])
    .where('a.id', 'in', [...accountIds])
    .execute();
}
