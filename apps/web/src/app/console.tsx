import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { routerOptions, routes } from './routes.tsx';

/** The console: the data router with every screen but the public checkout (see src/main.tsx). */
export function mountConsole(container: HTMLElement) {
  const router = createBrowserRouter(routes, routerOptions);
  createRoot(container).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}
