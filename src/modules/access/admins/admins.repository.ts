import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import type { AdminUsersTable, DB } from '../../../core/db/schema.js';
import type { AdminIdentity } from '../../../core/http/admin-request.js';

export type AdminRow = Selectable<AdminUsersTable>;

/** An administrator as the rest of the code sees one: never the password hash. */
export type Admin = AdminIdentity;

/** The account an administrator belongs to: null for an operator, who belongs to none. */
export type AdminAccountId = number | null;

/** The administrator with this id, if they belong to this account (null: an operator). */
export const adminOfAccount =
  (accountId: AdminAccountId, adminId: number) => (eb: ExpressionBuilder<DB, 'admin_users'>) =>
    eb.and([eb('account_id', 'is not distinct from', accountId), eb('id', '=', adminId)]);

export function insertAdmin(
  db: Db,
  accountId: AdminAccountId,
  values: Omit<Insertable<AdminUsersTable>, 'account_id'>,
): Promise<AdminRow> {
  return db
    .insertInto('admin_users')
    .values({ ...values, account_id: accountId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findAdmin(db: Db, accountId: AdminAccountId, adminId: number): Promise<AdminRow | undefined> {
  return db
    .selectFrom('admin_users')
    .selectAll()
    .where(adminOfAccount(accountId, adminId))
    .executeTakeFirst();
}

/** Cross-account by design: one address signs in to one administrator across the service. */
export function findAdminByEmail(db: Db, emailNormalized: string): Promise<AdminRow | undefined> {
  return db
    .selectFrom('admin_users')
    .selectAll()
    .where('email_normalized', '=', emailNormalized)
    .executeTakeFirst();
}

/** Whether the service has an operator (operators belong to no account). */
export async function operatorExists(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('admin_users')
    .select('id')
    .where('role', '=', 'operator')
    .executeTakeFirst();
  return row !== undefined;
}

export function listAccountAdmins(db: Db, accountId: number): Promise<AdminRow[]> {
  return db.selectFrom('admin_users').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

/** Sets fields of an administrator of this account (null: an operator). */
export async function updateAdmin(
  db: Db,
  accountId: AdminAccountId,
  adminId: number,
  changes: Partial<
    Pick<AdminRow, 'password_hash' | 'updated_at' | 'last_sign_in_at' | 'can_triage' | 'disabled_at'>
  >,
): Promise<void> {
  await db.updateTable('admin_users').set(changes).where(adminOfAccount(accountId, adminId)).execute();
}

/** Deletes an account administrator of this account (their sessions go with them); false when there is none. */
export async function deleteAccountAdmin(db: Db, accountId: number, adminId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('admin_users')
    .where('account_id', '=', accountId)
    .where('id', '=', adminId)
    .where('role', '=', 'account_admin')
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Ends every session of an administrator of this account (null: an operator); returns how many. */
export async function deleteSessionsOfAdmin(
  db: Db,
  accountId: AdminAccountId,
  adminId: number,
): Promise<number> {
  const result = await db
    .deleteFrom('admin_sessions')
    .where('user_id', '=', (eb) =>
      eb.selectFrom('admin_users').select('id').where(adminOfAccount(accountId, adminId)),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many enabled owners the account has besides this administrator. */
export async function countOtherEnabledOwners(db: Db, accountId: number, adminId: number): Promise<number> {
  const row = await db
    .selectFrom('admin_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('account_role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .where('id', '!=', adminId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
