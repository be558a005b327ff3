// Session, first-run setup and invitation links (docs/admin-api.md § Session).
import { request, setCsrfToken } from './client';

export type Role = 'operator' | 'account_admin';

export interface User {
  id: number;
  email: string;
  name: string;
  role: Role;
  account_id: number | null;
}

export interface Session {
  user: User | null;
  csrf_token: string;
  setup_required: boolean;
}

export interface Invitation {
  kind: 'setup' | 'invite';
  email: string | null;
  role: Role;
  account: { id: number; name: string } | null;
  expires_at: string;
}

interface SignedIn {
  user: User;
  csrf_token: string;
}

export async function getSession(): Promise<Session> {
  const session = await request<Session>('/session');
  setCsrfToken(session.csrf_token);
  return session;
}

export async function signIn(email: string, password: string): Promise<SignedIn> {
  const answer = await request<SignedIn>('/session', {
    method: 'POST',
    body: { email, password },
    skipUnauthorizedRedirect: true,
  });
  setCsrfToken(answer.csrf_token);
  return answer;
}

export async function signOut(): Promise<void> {
  await request<void>('/session', { method: 'DELETE', skipUnauthorizedRedirect: true });
  setCsrfToken(null);
}

export function getInvitation(token: string): Promise<Invitation> {
  return request<Invitation>(`/invitations/${encodeURIComponent(token)}`, { skipUnauthorizedRedirect: true });
}

export interface AcceptInvitationInput {
  email?: string;
  password: string;
  name?: string;
}

export async function acceptInvitation(token: string, input: AcceptInvitationInput): Promise<SignedIn> {
  const answer = await request<SignedIn>(`/invitations/${encodeURIComponent(token)}/accept`, {
    method: 'POST',
    body: input,
    skipUnauthorizedRedirect: true,
  });
  setCsrfToken(answer.csrf_token);
  return answer;
}

/** Changes the signed-in user's password; their other sessions end, this one stays. */
export function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  return request<void>('/session/password', {
    method: 'POST',
    body: { current_password: currentPassword, new_password: newPassword },
  });
}
