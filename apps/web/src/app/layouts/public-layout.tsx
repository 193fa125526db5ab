import { Outlet } from 'react-router';

/** Public routes: no sidebar, no header; content centred on a light background. */
export function PublicLayout() {
  return (
    <div className="public-shell">
      <main id="main-content" tabIndex={-1} className="public-main">
        <Outlet />
      </main>
    </div>
  );
}
