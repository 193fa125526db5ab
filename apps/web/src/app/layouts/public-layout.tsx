import { Outlet } from 'react-router';
import { PublicShell } from './public-shell.tsx';

/** The console's public routes (sign-in, password reset) inside the public shell. */
export function PublicLayout() {
  return (
    <PublicShell>
      <Outlet />
    </PublicShell>
  );
}
