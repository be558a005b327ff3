// The signed-in user, read once from GET /admin/api/session and kept by React Query; the calls
// that change the session, each remembering the CSRF token of the new one.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { authApi, call, setCsrfToken } from '../api/client';
import type { paths } from '../api/generated/admin-api';
import type { AcceptInvitationInput, Session, User } from '../api/types';

export type SecondStepInput = paths['/session/mfa']['post']['requestBody']['content']['application/json'];

export async function getSession(): Promise<Session> {
  const session = await call(authApi.GET('/session'));
  setCsrfToken(session.csrf_token);
  return session;
}

export async function signIn(email: string, password: string) {
  const answer = await call(authApi.POST('/session', { body: { email, password } }));
  setCsrfToken(answer.csrf_token);
  return answer;
}

/** The second step of sign-in (one of a TOTP code, a recovery code or a passkey's answer): a full session. */
export async function verifySecondStep(body: SecondStepInput) {
  const answer = await call(authApi.POST('/session/mfa', { body }));
  setCsrfToken(answer.csrf_token);
  return answer;
}

/** After a required first enrolment: the session becomes a full one. */
export async function finishEnrolment() {
  const answer = await call(authApi.POST('/session/mfa/enrolled', {}));
  setCsrfToken(answer.csrf_token);
  return answer;
}

/**
 * Where a session that still waits for MFA goes (null: nowhere, it is a full one): the second
 * step, or the enrolment of a first factor; `next` is kept for afterwards.
 */
export function mfaPath(pending: Session['mfa_pending'], next: string | null): string | null {
  if (pending === null) return null;
  const page = pending === 'verify' ? '/sign-in/verify' : '/sign-in/enrol';
  return next ? `${page}?next=${encodeURIComponent(next)}` : page;
}

export async function signOut(): Promise<void> {
  await call(authApi.DELETE('/session'));
  setCsrfToken(null);
}

export async function acceptInvitation(token: string, body: AcceptInvitationInput) {
  const answer = await call(
    authApi.POST('/invitations/{token}/accept', { params: { path: { token } }, body }),
  );
  setCsrfToken(answer.csrf_token);
  return answer;
}

export const SESSION_KEY = ['session'] as const;

export function useSession() {
  return useQuery<Session>({
    queryKey: SESSION_KEY,
    queryFn: getSession,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The user inside the signed-in part of the app (RequireAuth guarantees there is one). */
export function useCurrentUser(): User {
  const { data } = useSession();
  if (!data?.user) throw new Error('useCurrentUser outside RequireAuth');
  return data.user;
}

/**
 * The permissions whose routes act on the whole account: refused (403 `scope_too_narrow`) to a
 * role limited to groups whatever it holds, so their sections are hidden from it (the server's
 * ACCOUNT_WIDE_PERMISSIONS, src/modules/access/roles/roles.model.ts; docs/roles.md).
 */
const ACCOUNT_WIDE: readonly string[] = [
  'account:write',
  'roles:write',
  'security:write',
  'audit:read',
  'audit:settings',
  'integrations:read',
  'integrations:write',
];

/** Whether the user's role is limited to groups (docs/roles.md). */
export function isScoped(user: User): boolean {
  // The session's user (SessionUser) carries its groups: null for every group.
  const { groups } = user as User & { groups?: unknown };
  return user.role !== 'operator' && Array.isArray(groups) && groups.length > 0;
}

/**
 * Whether the user's role allows this in their account (operators: everything; docs/roles.md);
 * never what acts on the whole account when the role is limited to groups.
 */
export function can(user: User, permission: string): boolean {
  if (user.role === 'operator') return true;
  if (isScoped(user) && ACCOUNT_WIDE.includes(permission)) return false;
  return user.permissions.includes(permission);
}

/** Where a user lands after signing in: operators on the accounts, administrators in their account. */
export function homePath(user: User): string {
  return user.role === 'operator' || user.account_id === null ? '/accounts' : `/a/${user.account_id}`;
}

/** The signed-in pages of the app (app.tsx) a `next` may lead to: the accounts, your sessions, your sign-in security, or an account’s pages. */
const APP_PAGE = /^\/(?:accounts|sessions|security|a\/\d+(?:\/.*)?)$/;
const ORIGIN = 'https://app.invalid';

/**
 * A `next` parameter we may follow after sign-in: a signed-in page of this app, as its path
 * inside the app (`/a/3/employees?…`; the full `/admin/a/3/employees` is taken as the same).
 * Anything else gives null, and the user goes home: another origin, `//host`, `/\host`,
 * `javascript:`, a path outside the app's pages (it showed "not found"), and the sign-in and
 * link pages themselves. Following `/\host` or `/sign-in…` left the sign-in button spinning.
 */
export function safeNext(next: string | null): string | null {
  if (!next?.startsWith('/') || /[\\\p{Cc}]/u.test(next)) return null;
  let url: URL;
  try {
    url = new URL(next, ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN) return null;
  const path = url.pathname.replace(/^\/admin(?=\/|$)/, '');
  return APP_PAGE.test(path) ? `${path}${url.search}${url.hash}` : null;
}

/**
 * After sign-in, sign-out or accepting a link: forget everything cached for the previous user
 * and read the session again (its CSRF token changed).
 */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return async (): Promise<Session> => {
    queryClient.removeQueries();
    return queryClient.fetchQuery({ queryKey: SESSION_KEY, queryFn: getSession });
  };
}
