import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type DataRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUrlSearchParams } from './use-url-search-params.ts';

/** The list's search box, reduced to its URL write (the debounced one, so it replaces). */
function List() {
  const [params, setParams] = useUrlSearchParams();
  return (
    <>
      <p>List searched for {params.get('search') ?? 'nothing'}</p>
      <button type="button" onClick={() => setParams({ search: 'MN-1' }, { replace: true })}>
        Search
      </button>
    </>
  );
}
const write = () => fireEvent.click(screen.getByRole('button', { name: 'Search' }));

/** A list at /list, and a details page whose code arrives when the test says. */
function renderRoutes() {
  let arrive!: () => void;
  const code = new Promise<void>((resolve) => (arrive = resolve));
  const router = createMemoryRouter(
    [
      { path: '/list', Component: List },
      {
        path: '/details',
        lazy: async () => {
          await code;
          return { Component: () => <h1>Details</h1> };
        },
      },
    ],
    { initialEntries: ['/list'] },
  );
  render(<RouterProvider router={router} />);
  return { router, arrive };
}

const settle = (router: DataRouter) =>
  new Promise<void>((resolve) => {
    if (router.state.navigation.state === 'idle') resolve();
    else {
      const stop = router.subscribe((state) => {
        if (state.navigation.state !== 'idle') return;
        stop();
        resolve();
      });
    }
  });

describe('useUrlSearchParams', () => {
  it('writes the list state into the URL when no other page is on its way', async () => {
    const { router } = renderRoutes();
    await screen.findByText('List searched for nothing');
    await act(() => write());
    expect(router.state.location.search).toBe('?search=MN-1');
    expect(screen.getByText('List searched for MN-1')).toBeTruthy();
  });

  it('drops a write made while another page the admin opened is loading its code', async () => {
    const { router, arrive } = renderRoutes();
    await screen.findByText('List searched for nothing');
    await act(async () => {
      void router.navigate('/details');
      // Still loading: the debounced search's write comes now.
      expect(router.state.navigation.state).toBe('loading');
      write();
      arrive();
      await settle(router);
    });
    expect(router.state.location.pathname).toBe('/details');
    expect(await screen.findByRole('heading', { name: 'Details' })).toBeTruthy();
  });
});
