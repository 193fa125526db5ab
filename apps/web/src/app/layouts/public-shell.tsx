import type { ReactNode } from 'react';

/**
 * Public pages: no sidebar, no header; content centred on a light background. Without the router, so
 * the public checkout (app/checkout-app.tsx) can use it too.
 */
export function PublicShell({ children }: { children: ReactNode }) {
  return (
    <div className="public-shell">
      <main id="main-content" tabIndex={-1} className="public-main">
        {children}
      </main>
    </div>
  );
}
