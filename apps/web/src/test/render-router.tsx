import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { RouterProvider, type createMemoryRouter } from 'react-router';
import { Toaster } from 'sonner';

type Router = ReturnType<typeof createMemoryRouter>;

/**
 * Renders a test router the way the app does: a fresh query cache without retries (docs/product.md §7.4) and,
 * unless the routes bring their own (TestRoot), a Toaster so toasts can be asserted on screen.
 */
export function renderRouter<R extends Router>(router: R, { toaster = true }: { toaster?: boolean } = {}): R {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {toaster ? <Toaster /> : null}
    </QueryClientProvider>,
  );
  return router;
}
