// Administrators of an account and their pending invitations (docs/admin-api.md § Administrators).
import { type ListPage, request } from './client';
import type { Role } from './session';

export interface Admin {
  id: number;
  email: string;
  name: string;
  role: Role;
  created_at: string;
  last_sign_in_at: string | null;
}

export interface PendingInvitation {
  id: number;
  email: string;
  created_at: string;
  expires_at: string;
}

/** A just-created invitation: `url` (with its token) is shown only this once. */
export interface CreatedInvitation extends PendingInvitation {
  url: string;
}

export function listAdmins(accountId: number): Promise<ListPage<Admin>> {
  return request(`/accounts/${accountId}/admins`, { query: { page_size: 200 } });
}

export function listInvitations(accountId: number): Promise<ListPage<PendingInvitation>> {
  return request(`/accounts/${accountId}/invitations`, { query: { page_size: 200 } });
}

export function createInvitation(accountId: number, email: string): Promise<CreatedInvitation> {
  return request(`/accounts/${accountId}/invitations`, { method: 'POST', body: { email } });
}

export function revokeInvitation(accountId: number, invitationId: number): Promise<void> {
  return request(`/accounts/${accountId}/invitations/${invitationId}`, { method: 'DELETE' });
}

/** Operators only: the administrator can no longer sign in; their sessions end at once. */
export function removeAdmin(accountId: number, adminId: number): Promise<void> {
  return request(`/accounts/${accountId}/admins/${adminId}`, { method: 'DELETE' });
}
