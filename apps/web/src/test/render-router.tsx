import type { ComponentType } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter, useLocation } from 'react-router';
import { Toaster } from 'sonner';
import { TestRoot } from './test-root.tsx';

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

/** Where a link or button of the page under test led: any other URL renders this instead of a 404 error. */
function ElsewhereStub() {
  return <p>Navigated to {useLocation().pathname}</p>;
}

export type PageToRender = {
  /** The route pattern, e.g. '/admin/view-role/:id'. */
  path: string;
  Component: ComponentType;
  /** The URL opened, with its query if any. */
  at: string;
  /** Navigation state, as a link from the previous page would carry it. */
  state?: unknown;
};

/**
 * Renders one route-level page under the app's test root (registered navigate, visible toasts) at `at`.
 * Returns the router, so a test can read where a click went.
 */
export function renderPage({ path, Component, at, state }: PageToRender): Router {
  const url = new URL(at, 'http://console');
  const router = createMemoryRouter(
    [
      {
        Component: TestRoot,
        children: [
          { path, Component },
          { path: '*', Component: ElsewhereStub },
        ],
      },
    ],
    {
      initialEntries: [{ pathname: url.pathname, search: url.search, state }],
    },
  );
  return renderRouter(router, { toaster: false });
}
