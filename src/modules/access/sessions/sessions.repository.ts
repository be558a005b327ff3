import type { Insertable } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import type { AdminSessionsTable, MfaPending } from '../../../core/db/schema.js';
import { type AdminAccountId, type AdminRow, adminOfAccount } from '../admins/admins.repository.js';

/** A session of an administrator who has just proved who they are (sessions.service signIn). */
export async function insertSession(db: Db, values: Insertable<AdminSessionsTable>): Promise<void> {
  await db.insertInto('admin_sessions').values(values).execute();
}

/** Cross-account by design: the cookie's token alone identifies the session and its administrator. */
export function findSessionWithAdmin(db: Db, idHash: string) {
  return db
    .selectFrom('admin_sessions as s')
    .innerJoin('admin_users as u', 'u.id', 's.user_id')
    .select(['s.last_seen_at', 's.expires_at', 's.mfa_pending'])
    .select([
      'u.id',
      'u.email',
      'u.email_normalized',
      'u.name',
      'u.role',
      'u.account_id',
      'u.created_at',
      'u.updated_at',
      'u.last_sign_in_at',
      'u.can_triage',
      'u.account_role',
      'u.disabled_at',
      'u.break_glass',
    ])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst() as Promise<
    | (Omit<AdminRow, 'password_hash'> & {
        last_seen_at: number;
        expires_at: number;
        mfa_pending: MfaPending | null;
      })
    | undefined
  >;
}

export async function touchSession(db: Db, idHash: string, at: number): Promise<void> {
  await db.updateTable('admin_sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('admin_sessions').where('id_hash', '=', idHash).execute();
}

/** Service-wide housekeeping: removes every administrator's sessions past their end or idle too long; returns how many. */
export async function deleteStaleSessionsOfAllAdmins(db: Db, now: number, idleMs: number): Promise<number> {
  const result = await db
    .deleteFrom('admin_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - idleMs)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends every session but one (the one they are using) of an administrator of this account (null: an operator). */
export async function deleteOtherSessions(
  db: Db,
  accountId: AdminAccountId,
  adminId: number,
  keepIdHash: string,
): Promise<void> {
  await db
    .deleteFrom('admin_sessions')
    .where('user_id', '=', (eb) =>
      eb.selectFrom('admin_users').select('id').where(adminOfAccount(accountId, adminId)),
    )
    .where('id_hash', '!=', keepIdHash)
    .execute();
}

/** A session as the sessions page shows it (its id hash stays on the server: `public_id` names it). */
export interface SessionListRow {
  id_hash: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  address: string | null;
  user_agent: string | null;
  method: string | null;
}

/** The sessions of an administrator of this account (null: an operator), newest use first. */
export function listSessionsOfAdmin(
  db: Db,
  accountId: AdminAccountId,
  adminId: number,
): Promise<SessionListRow[]> {
  return db
    .selectFrom('admin_sessions')
    .select(['id_hash', 'created_at', 'last_seen_at', 'expires_at', 'address', 'user_agent', 'method'])
    .where('user_id', '=', (eb) =>
      eb.selectFrom('admin_users').select('id').where(adminOfAccount(accountId, adminId)),
    )
    .orderBy('last_seen_at', 'desc')
    .execute() as Promise<SessionListRow[]>;
}

/** Ends one session of an administrator of this account; false when they have no such session. */
export async function deleteSessionOfAdmin(
  db: Db,
  accountId: AdminAccountId,
  adminId: number,
  idHash: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('admin_sessions')
    .where('user_id', '=', (eb) =>
      eb.selectFrom('admin_users').select('id').where(adminOfAccount(accountId, adminId)),
    )
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
