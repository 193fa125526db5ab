import { Navigate, Outlet } from 'react-router';
import { paths } from '../lib/paths.ts';
import { useToken } from '../lib/use-session.ts';

/** docs/product.md §2.3: every admin route needs a stored token; without one, /login-admin replaces the entry. */
export function RequireAuth() {
  const token = useToken();
  return token ? <Outlet /> : <Navigate to={paths.signIn.href()} replace />;
}
