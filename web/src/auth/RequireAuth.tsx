import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useLimitsQuery } from '../api/limits';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { accountPath } from '../layout/account-context';
import { mfaPath, useSession } from './session';

/**
 * Renders the signed-in routes, or sends the visitor to sign in (and back here afterwards). The
 * server's limits are read alongside the session: the pages inside use them at once.
 */
export function RequireAuth() {
  const { data, error, isPending } = useSession();
  const limits = useLimitsQuery();
  const location = useLocation();
  if (isPending || limits.isPending) return <Loading label="Checking your session" />;
  if (error) return <ErrorAlert error={error} title="Could not check your session" />;
  if (limits.error) return <ErrorAlert error={limits.error} title="Could not load the settings" />;
  if (!data.user) {
    const next = location.pathname + location.search;
    const to = next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`;
    return <Navigate to={to} replace />;
  }
  // Signed in with a password but still waiting for the second step, or for a first factor.
  const pending = mfaPath(data.mfa_pending, location.pathname + location.search);
  if (pending) return <Navigate to={pending} replace />;
  return <Outlet />;
}

/** Operators only (account administrators get their home instead). */
export function RequireOperator({ children }: { children: ReactNode }) {
  const { data } = useSession();
  const user = data?.user;
  if (user && user.role !== 'operator') return <Navigate to={accountPath(user.account_id ?? 0)} replace />;
  return <>{children}</>;
}
