import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import type { AdminInvitationsTable } from '../../../core/db/schema.js';
import type { AdminAccountId } from '../admins/admins.repository.js';

export type InvitationRow = Selectable<AdminInvitationsTable>;

type NewLink = Omit<Insertable<AdminInvitationsTable>, 'kind' | 'account_id'>;

/** An invitation to become an administrator of this account. */
export function insertInvitation(db: Db, accountId: number, values: NewLink): Promise<InvitationRow> {
  return db
    .insertInto('admin_invitations')
    .values({ ...values, kind: 'invite', account_id: accountId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A link that makes the first operator: it belongs to no account. */
export function insertSetupLink(db: Db, values: NewLink): Promise<InvitationRow> {
  return db
    .insertInto('admin_invitations')
    .values({ ...values, kind: 'setup', account_id: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Cross-account by design: the token alone identifies the link (and the account it is for). */
export function findInvitationByHash(db: Db, tokenHash: string): Promise<InvitationRow | undefined> {
  return db
    .selectFrom('admin_invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Marks a usable link of this account (null: a setup link) accepted; false when it was used,
 * revoked or expired meanwhile.
 */
export async function claimInvitation(
  db: Db,
  accountId: AdminAccountId,
  invitationId: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('admin_invitations')
    .set({ accepted_at: now })
    .where('account_id', 'is not distinct from', accountId)
    .where('id', '=', invitationId)
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

/** Links not yet accepted or revoked. */
function revocable(db: Db, now: number) {
  return db
    .updateTable('admin_invitations')
    .set({ revoked_at: now })
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null);
}

/** Revokes a pending invitation of this account; false when there is none. */
export async function revokeInvitationRow(
  db: Db,
  accountId: number,
  invitationId: number,
  now: number,
): Promise<boolean> {
  const result = await revocable(db, now)
    .where('account_id', '=', accountId)
    .where('id', '=', invitationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes every unused setup link (they belong to no account); returns how many. */
export async function revokeSetupLinks(db: Db, now: number): Promise<number> {
  const result = await revocable(db, now)
    .where('account_id', 'is', null)
    .where('kind', '=', 'setup')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
