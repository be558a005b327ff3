import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AdminInvitationsTable } from '../../db/schema.js';

export type InvitationRow = Selectable<AdminInvitationsTable>;

export function insertInvitation(db: Db, values: Insertable<AdminInvitationsTable>): Promise<InvitationRow> {
  return db.insertInto('admin_invitations').values(values).returningAll().executeTakeFirstOrThrow();
}

export function findInvitationByHash(db: Db, tokenHash: string): Promise<InvitationRow | undefined> {
  return db
    .selectFrom('admin_invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks a usable invitation accepted; false when it was used, revoked or expired meanwhile. */
export async function claimInvitation(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('admin_invitations')
    .set({ accepted_at: now })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function listPendingInvitations(db: Db, accountId: number, now: number): Promise<InvitationRow[]> {
  return db
    .selectFrom('admin_invitations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('kind', '=', 'invite')
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute();
}

export async function revokeInvitations(
  db: Db,
  where: { id?: number; accountId?: number; kind?: 'setup' },
  now: number,
): Promise<number> {
  let query = db
    .updateTable('admin_invitations')
    .set({ revoked_at: now })
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null);
  if (where.id !== undefined) query = query.where('id', '=', where.id);
  if (where.accountId !== undefined) query = query.where('account_id', '=', where.accountId);
  if (where.kind !== undefined) query = query.where('kind', '=', where.kind);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
