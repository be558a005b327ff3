import { iso } from '../../../core/time.js';
import type { Account } from '../accounts/accounts.service.js';
import type { Invitation } from './invitations.service.js';

export function presentInvitation(invitation: Invitation, groups: number[] = []) {
  return {
    id: invitation.id,
    email: invitation.email,
    account_role: invitation.account_role ?? 'owner',
    group_ids: groups,
    created_at: iso(invitation.created_at),
    expires_at: iso(invitation.expires_at),
  };
}

/** What the page behind a link shows before the password is chosen. */
export function presentLink(invitation: Invitation, account: Account | null) {
  return {
    kind: invitation.kind,
    email: invitation.email,
    role: invitation.kind === 'setup' ? ('operator' as const) : ('account_admin' as const),
    account: account ? { id: account.id, name: account.name } : null,
    expires_at: iso(invitation.expires_at),
  };
}
