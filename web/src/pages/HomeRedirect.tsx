import { Navigate } from 'react-router';
import { homePath, useCurrentUser } from '../auth/session';

/** `/`: operators go to the accounts, account administrators into their account. */
export function HomeRedirect() {
  return <Navigate to={homePath(useCurrentUser())} replace />;
}
