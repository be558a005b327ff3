// The signed-in user, read once from GET /admin/api/session and kept by React Query.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getSession, type Session, type User } from '../api/session';

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

/** Where a user lands after signing in: operators on the accounts, administrators in their account. */
export function homePath(user: User): string {
  return user.role === 'operator' || user.account_id === null ? '/accounts' : `/a/${user.account_id}`;
}

/** A `next` parameter we may follow: a path inside the app, never another site. */
export function safeNext(next: string | null): string | null {
  return next?.startsWith('/') && !next.startsWith('//') ? next : null;
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
