import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AdminUsersTable } from '../../db/schema.js';

export type AdminRow = Selectable<AdminUsersTable>;

/** An administrator as the rest of the code sees one: never the password hash. */
export type Admin = Omit<AdminRow, 'password_hash'>;

export function insertAdmin(db: Db, values: Insertable<AdminUsersTable>): Promise<AdminRow> {
  return db.insertInto('admin_users').values(values).returningAll().executeTakeFirstOrThrow();
}

export function findAdmin(db: Db, adminId: number): Promise<AdminRow | undefined> {
  return db.selectFrom('admin_users').selectAll().where('id', '=', adminId).executeTakeFirst();
}

export function findAdminByEmail(db: Db, emailNormalized: string): Promise<AdminRow | undefined> {
  return db
    .selectFrom('admin_users')
    .selectAll()
    .where('email_normalized', '=', emailNormalized)
    .executeTakeFirst();
}

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

export async function recordSignIn(db: Db, adminId: number, at: number): Promise<void> {
  await db.updateTable('admin_users').set({ last_sign_in_at: at }).where('id', '=', adminId).execute();
}

export async function updatePasswordHash(
  db: Db,
  adminId: number,
  passwordHash: string,
  at: number,
): Promise<void> {
  await db
    .updateTable('admin_users')
    .set({ password_hash: passwordHash, updated_at: at })
    .where('id', '=', adminId)
    .execute();
}

/** Deletes an account administrator of this account (their sessions go with them); false when there is none. */
export async function deleteAccountAdmin(db: Db, accountId: number, adminId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('admin_users')
    .where('id', '=', adminId)
    .where('account_id', '=', accountId)
    .where('role', '=', 'account_admin')
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
