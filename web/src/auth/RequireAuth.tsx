import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { accountPath } from '../layout/account-context';
import { useSession } from './session';

/** Renders the signed-in routes, or sends the visitor to sign in (and back here afterwards). */
export function RequireAuth() {
  const { data, error, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <Loading label="Checking your session" />;
  if (error) return <ErrorAlert error={error} title="Could not check your session" />;
  if (!data.user) {
    const next = location.pathname + location.search;
    const to = next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`;
    return <Navigate to={to} replace />;
  }
  return <Outlet />;
}

/** Operators only (account administrators get their home instead). */
export function RequireOperator({ children }: { children: ReactNode }) {
  const { data } = useSession();
  const user = data?.user;
  if (user && user.role !== 'operator') return <Navigate to={accountPath(user.account_id ?? 0)} replace />;
  return <>{children}</>;
}
