import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { recordHistoryKeys } from '../components/record-history-api.ts';
import { notifyError } from '../lib/api-client.ts';
import { deniedPermissionOf } from '../lib/permission-error.ts';
import { onSignedOut } from '../lib/session-store.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /** `meta: { silentError: true }` for a query that shows its own error (or none). */
    queryMeta: { silentError?: boolean };
  }
}

/**
 * One cache for the console. docs/product.md §7.4: queries are not retried; docs/product.md §8: a failed query shows the
 * server msg or 'An error occurred' (a 401 has already been announced by the client; a permission the
 * API refused shows the no-access page instead, decision 047). Mutations report their own errors (forms have their own texts).
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (!query.meta?.silentError && !deniedPermissionOf(error)) notifyError(error);
    },
  }),
  // Whatever a saved change was, the History section on screen may have a row more (decision 081):
  // only the histories shown are read again.
  mutationCache: new MutationCache({
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: recordHistoryKeys.all }),
  }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// Signing out (logout, a 401, or another tab) drops every cached answer of the previous admin.
onSignedOut(() => queryClient.clear());
