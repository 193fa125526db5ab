import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MouseEvent } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Link } from './link.tsx';

function Target() {
  const location = useLocation();
  return <p>At {`${location.pathname} with ${JSON.stringify(location.state)}`}</p>;
}

function renderLink(onClick?: (event: MouseEvent<HTMLAnchorElement>) => void) {
  const router = createMemoryRouter(
    [
      {
        path: '/admin/device',
        element: (
          <Link to="/admin/device-details/7" state={{ deviceId: '7' }} className="btn" onClick={onClick}>
            View
          </Link>
        ),
      },
      { path: '/admin/device-details/:id', Component: Target },
    ],
    { initialEntries: ['/admin/device'] },
  );
  render(<RouterProvider router={router} />);
  return { router, link: screen.getByRole('link', { name: 'View' }) };
}

describe('Link', () => {
  it('renders an anchor with the path as its href and navigates in place, with its state', async () => {
    const onClick = vi.fn();
    const { router, link } = renderLink(onClick);
    expect(link.getAttribute('href')).toBe('/admin/device-details/7');
    expect(link.className).toBe('btn');
    await userEvent.click(link);
    expect(await screen.findByText('At /admin/device-details/7 with {"deviceId":"7"}')).toBeTruthy();
    expect(onClick).toHaveBeenCalledOnce();
    expect(router.state.historyAction).toBe('PUSH');
  });

  it('leaves a modified click to the browser (a new tab or window)', () => {
    const { router, link } = renderLink();
    // Runs after React's handlers: records whether the Link took the click, then keeps jsdom from following it.
    let takenByLink: boolean | undefined;
    const afterReact = (event: Event) => {
      takenByLink = event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener('click', afterReact);
    fireEvent.click(link, { ctrlKey: true });
    document.removeEventListener('click', afterReact);
    expect(takenByLink).toBe(false);
    expect(router.state.location.pathname).toBe('/admin/device');
  });

  it('does not navigate when its own onClick prevents the default', async () => {
    const { router, link } = renderLink((event) => event.preventDefault());
    await userEvent.click(link);
    expect(router.state.location.pathname).toBe('/admin/device');
  });
});
