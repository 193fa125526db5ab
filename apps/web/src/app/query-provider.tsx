import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './query-client.ts';

/** TanStack Query is loaded with the screens that use it, not with the sign-in page. */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/** A pathless route that gives its public children (password reset, checkout) the query cache. */
export function QueryOutlet() {
  return (
    <QueryProvider>
      <Outlet />
    </QueryProvider>
  );
}
