import { Navigate, Outlet } from 'react-router';
import { paths } from '../lib/paths.ts';
import { useToken } from '../lib/use-session.ts';
import { useIsClinicUser } from './require-clinic.tsx';

/**
 * docs/product.md §2.3: every admin route needs a stored token; without one, /login-admin replaces the
 * entry. A clinic user never sees an admin screen: /admin/* sends them to their portal (decision 088).
 */
export function RequireAuth() {
  const token = useToken();
  const clinic = useIsClinicUser();
  if (!token) return <Navigate to={paths.signIn.href()} replace />;
  return clinic ? <Navigate to={paths.clinic.href()} replace /> : <Outlet />;
}
