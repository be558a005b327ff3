import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import { hashToken, isWellFormedToken, newToken } from '../../../core/auth/tokens.js';
import type { Db } from '../../../core/db/database.js';
import { AppError, emailTaken, FieldErrorCollector, invalidLink } from '../../../core/errors.js';
import { checkEmail } from '../../../core/fields.js';
import { type Account, getAccount } from '../accounts/accounts.service.js';
import {
  ADMIN_EMAIL_TAKEN,
  type Admin,
  adminEmailTaken,
  insertPreparedAdmin,
  prepareAdmin,
} from '../admins/admins.service.js';
import {
  insertInvitationScope,
  invitationScopeOf,
  invitationScopes,
  replaceGroupScope,
} from '../roles/roles.repository.js';
import { checkAssignment } from '../roles/roles.service.js';
import {
  claimInvitation,
  findInvitationByHash,
  type InvitationRow,
  insertInvitation,
  insertSetupLink,
  listPendingInvitations,
  revokeInvitationRow,
  revokeSetupLinks,
} from './invitations.repository.js';

export const SETUP_LINK_TTL_MS = 24 * 60 * 60 * 1000;
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type Invitation = InvitationRow;

/**
 * A fresh one-time link that makes the first operator; earlier unused setup links stop
 * working. Returns the token, which exists only in the link.
 */
export async function createSetupLink(db: Db): Promise<{ token: string; invitation: Invitation }> {
  const now = Date.now();
  const { token, hash } = newToken();
  const invitation = await db.transaction().execute(async (trx) => {
    await revokeSetupLinks(trx, now);
    const link = await insertSetupLink(trx, {
      token_hash: hash,
      email: null,
      created_by: null,
      created_at: now,
      expires_at: now + SETUP_LINK_TTL_MS,
    });
    // The service's own chain; the link's token is a secret, never recorded.
    await recordAudit(trx, {
      accountId: null,
      action: 'setup_link.created',
      object: { type: 'invitation', id: link.id },
      changes: { expires_at: { from: null, to: link.expires_at }, token: { changed: true } },
    });
    return link;
  });
  return { token, invitation };
}

/**
 * Invites an account administrator by email, with the role (default: administrator) and group
 * scope they will get; the token is returned once, for the link.
 */
export async function inviteAdmin(
  db: Db,
  props: { accountId: number; email: unknown; invitedBy: number; role?: unknown; group_ids?: unknown },
): Promise<{ token: string; invitation: Invitation; groups: number[] }> {
  const errors = new FieldErrorCollector();
  const email = checkEmail(errors, 'email', props.email);
  errors.throwIfAny();
  await getAccount(db, props.accountId);
  const assignment = await checkAssignment(db, props.accountId, {
    role: props.role ?? 'administrator',
    group_ids: props.group_ids,
  });
  if (await adminEmailTaken(db, email)) throw emailTaken(ADMIN_EMAIL_TAKEN);
  const now = Date.now();
  const { token, hash } = newToken();
  const invitation = await db.transaction().execute(async (trx) => {
    const row = await insertInvitation(trx, props.accountId, {
      token_hash: hash,
      email,
      created_by: props.invitedBy,
      created_at: now,
      expires_at: now + INVITATION_TTL_MS,
      account_role: assignment.role,
    });
    await insertInvitationScope(trx, props.accountId, row.id, assignment.groups);
    await recordAudit(trx, {
      accountId: props.accountId,
      action: 'admin.invited',
      object: { type: 'invitation', id: row.id, label: email },
      changes: diffFields(null, { email, role: assignment.role, groups: assignment.groups }),
    });
    return row;
  });
  return { token, invitation, groups: assignment.groups };
}

/** The usable invitation behind a link, with its account; 404 for any other token. */
export async function openInvitation(
  db: Db,
  token: string,
): Promise<{ invitation: Invitation; account: Account | null }> {
  // Cross-account by design: the token alone identifies the link and the account it is for.
  const row = isWellFormedToken(token) ? await findInvitationByHash(db, hashToken(token)) : undefined;
  if (!row || row.accepted_at !== null || row.revoked_at !== null || row.expires_at <= Date.now()) {
    throw invalidLink();
  }
  return { invitation: row, account: row.account_id === null ? null : await getAccount(db, row.account_id) };
}

/**
 * Turns a link into an administrator: a setup link into an operator with the address given,
 * an invitation into an administrator of its account with the invited address. One use only,
 * even when two people submit the same link at once.
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  input: { email?: unknown; password: unknown; name?: unknown },
): Promise<Admin> {
  const { invitation } = await openInvitation(db, token);
  const setup = invitation.kind === 'setup';
  const prepared = await prepareAdmin(db, {
    accountId: invitation.account_id,
    role: setup ? 'operator' : 'account_admin',
    // Invitations made before roles existed made owners.
    accountRole: invitation.account_role ?? 'owner',
    email: setup ? input.email : invitation.email,
    password: input.password,
    name: input.name,
  });
  // Claim first: a second acceptance waits for the first and then finds the link used.
  return db.transaction().execute(async (trx) => {
    if (!(await claimInvitation(trx, invitation.account_id, invitation.id, Date.now()))) throw invalidLink();
    const admin = await insertPreparedAdmin(trx, prepared, 'self');
    if (invitation.account_id !== null) {
      const groups = await invitationScopeOf(trx, invitation.account_id, invitation.id);
      await replaceGroupScope(trx, invitation.account_id, admin.id, groups);
    }
    return admin;
  });
}

/** An account's pending invitations, each with the group scope it gives (empty: every group). */
export async function pendingInvitations(
  db: Db,
  accountId: number,
): Promise<{ invitation: Invitation; groups: number[] }[]> {
  await getAccount(db, accountId);
  const scopes = await invitationScopes(db, accountId);
  return (await listPendingInvitations(db, accountId, Date.now())).map((invitation) => ({
    invitation,
    groups: scopes.get(invitation.id) ?? [],
  }));
}

export async function revokeInvitation(db: Db, accountId: number, invitationId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await revokeInvitationRow(trx, accountId, invitationId, Date.now()))) {
      throw new AppError('invitation_not_found');
    }
    await recordAudit(trx, {
      accountId,
      action: 'admin.invitation_revoked',
      object: { type: 'invitation', id: invitationId },
    });
  });
}
