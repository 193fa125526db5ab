import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RouteError } from './route-error.tsx';

function Broken(): never {
  throw new Error('Panel exploded');
}

describe('route error screen', () => {
  it("reads 'Unexpected Application Error!' with the error's message", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = createMemoryRouter([
      { path: '/', Component: Broken, errorElement: <RouteError standalone /> },
    ]);
    render(<RouterProvider router={router} />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Unexpected Application Error!' }),
    ).toBeTruthy();
    expect(screen.getByText('Panel exploded')).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
  });
});
