import { Navigate, Outlet } from 'react-router';
import { paths } from '../lib/paths.ts';
import { useSession, useToken } from '../lib/use-session.ts';

/** Whether the stored session is a clinic user's (decision 088): they work in the portal, never /admin. */
export const useIsClinicUser = () => useSession((s) => s.details?.role?.type === 'clinic');

/**
 * The clinic portal's guard: signed out goes to sign-in (as for /admin); a supplier's admin, who has
 * no clinic, goes to the console.
 */
export function RequireClinic() {
  const token = useToken();
  const clinic = useIsClinicUser();
  if (!token) return <Navigate to={paths.signIn.href()} replace />;
  return clinic ? <Outlet /> : <Navigate to={paths.devices.href()} replace />;
}
