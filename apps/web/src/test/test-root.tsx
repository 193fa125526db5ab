import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { Toaster } from 'sonner';
import { setNavigator } from '../lib/navigation.ts';

/** What the app's root gives a test router: the registered navigate and a visible Toaster. */
export function TestRoot() {
  const navigate = useNavigate();
  useEffect(() => setNavigator((to) => void navigate(to, { replace: true })), [navigate]);
  return (
    <>
      <Outlet />
      <Toaster position="top-right" closeButton richColors />
    </>
  );
}
