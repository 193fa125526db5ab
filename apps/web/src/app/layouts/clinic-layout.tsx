import { useEffect, useState, type MouseEvent } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Link } from '#web/components/link.tsx';
import { clinicUserPaths } from '@app/contract/clinic-users-texts';
import { signInMessages } from '@app/contract/sign-in-texts';
import { DeviceIcon } from '#web/components/base-icons.tsx';
import { apiClient } from '#web/lib/api-client.ts';
import { applyColorMode, cachedColorMode, darkSchemeQuery } from '#web/lib/color-mode.ts';
import { navigateTo } from '#web/lib/navigation.ts';
import { notify, preloadToastsWhenIdle } from '#web/lib/notify.ts';
import { paths } from '#web/lib/paths.ts';
import { clearSession } from '#web/lib/session-store.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { useSession } from '#web/lib/use-session.ts';
import { QueryProvider } from '../query-provider.tsx';
import { clinicNav } from './clinic-nav.ts';
import { ClinicUserMenu } from './clinic-user-menu.tsx';
/** As the console's sign-out (docs/product.md §2.3): the toast, then sign-in after 500 ms. */
const LOGOUT_REDIRECT_MS = 500;

function focusMain(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  document.getElementById('main-content')?.focus();
}

/** Revokes the portal session; a failure is ignored, the local session is cleared anyway. */
async function signOutOfPortal() {
  try {
    await apiClient.post<null>(clinicUserPaths.logout, undefined, { ignoreUnauthorized: true });
  } catch {
    // Offline or already revoked: nothing more to do.
  }
}

/**
 * The clinic portal (/clinic, decision 088): its own header with the clinic's name, the portal's
 * navigation (clinic-nav.ts, by the user's clinic role) and the user's menu; the console's design
 * system and colour modes. No sidebar: a clinic has a handful of screens.
 */
export function ClinicLayout() {
  const clinic = useSession((s) => s.details?.clinic);
  const name = useSession((s) => {
    const d = s.details;
    return [d?.firstName, d?.lastName].filter(Boolean).join(' ') || d?.email || 'Clinic user';
  });
  const [loggingOut, setLoggingOut] = useState(false);
  const systemDark = useMediaQuery(darkSchemeQuery);
  useEffect(() => applyColorMode(cachedColorMode(), systemDark), [systemDark]);
  useEffect(() => preloadToastsWhenIdle(), []);

  const logout = async () => {
    setLoggingOut(true);
    await signOutOfPortal();
    clearSession();
    notify.success(signInMessages.loggedOut);
    setTimeout(() => navigateTo(paths.signIn.href()), LOGOUT_REDIRECT_MS);
  };

  const { pathname } = useLocation();
  const isActive = (item: (typeof clinicNav)[number]) =>
    item.end ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
  const items = clinicNav.filter((item) => !item.roles || (clinic && item.roles.includes(clinic.role)));
  return (
    <QueryProvider>
      <a href="#main-content" className="skip-link" onClick={focusMain}>
        Skip to main content
      </a>
      <div className="clinic-shell d-flex flex-column min-vh-100">
        <header className="border-bottom bg-body-tertiary">
          <div className="container-lg d-flex flex-wrap align-items-center gap-3 py-2">
            <span className="d-inline-flex align-items-center gap-2 fw-semibold">
              <DeviceIcon size={22} />
              <span data-testid="clinic-name">{clinic?.name ?? 'Clinic portal'}</span>
            </span>
            <nav aria-label="Clinic portal" className="me-auto">
              <ul className="nav nav-pills">
                {items.map((item) => (
                  <li className="nav-item" key={item.href}>
                    <Link
                      to={item.href}
                      className={`nav-link${isActive(item) ? ' active' : ''}`}
                      aria-current={isActive(item) ? 'page' : undefined}
                    >
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <ClinicUserMenu name={name} onLogout={() => void logout()} loggingOut={loggingOut} />
          </div>
        </header>
        <main id="main-content" tabIndex={-1} className="container-lg flex-grow-1 py-4">
          <Outlet />
        </main>
        <footer className="admin-footer">
          © {new Date().getFullYear()} Device Admin. All rights reserved.
        </footer>
      </div>
    </QueryProvider>
  );
}
