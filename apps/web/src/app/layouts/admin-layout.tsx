import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { useLocation } from 'react-router';
import { signInMessages } from '@app/contract/sign-in-texts';
import { sessionMessages } from '@app/contract/session';
import { signOut } from '#web/features/auth/api/sign-out.ts';
import { navigateTo } from '#web/lib/navigation.ts';
import { paths } from '#web/lib/paths.ts';
import { notify, preloadToastsWhenIdle } from '#web/lib/notify.ts';
import { clearSession, setSidebarOpen } from '#web/lib/session-store.ts';
import { useSession } from '#web/lib/use-session.ts';
import { useApplyColorMode } from '#web/lib/use-color-mode.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { QueryProvider } from '../query-provider.tsx';
import { IdleWarning } from './idle-warning.tsx';
import { ScreenOutlet } from './screen-outlet.tsx';
import { Sidebar } from './sidebar.tsx';
import { Topbar } from './topbar.tsx';
import { useOverlayMenuFocus } from './use-overlay-menu-focus.ts';

export const LOGOUT_REDIRECT_MS = 500;

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

function useAdminIdentity() {
  const details = useSession((s) => s.details);
  const userDetails = useSession((s) => s.userDetails);
  const fullName = [text(details?.firstName), text(details?.lastName)].filter(Boolean).join(' ');
  const name =
    text(userDetails?.userName) ??
    text(details?.userName) ??
    (fullName || null) ??
    text(details?.email) ??
    'Admin';
  const avatarUrl = text(userDetails?.profileImage) ?? text(details?.profileImage);
  return { name, avatarUrl };
}

function focusMain(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  document.getElementById('main-content')?.focus();
}

/** Applies the admin's colour mode; inside the query cache, which holds it. */
function ColorMode() {
  useApplyColorMode();
  return null;
}

/** Sidebar, top bar, main and footer around every admin screen; also provides the query cache. */
export function AdminLayout() {
  const { name, avatarUrl } = useAdminIdentity();
  const [loggingOut, setLoggingOut] = useState(false);
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const firstPath = useRef(pathname);

  // The stored choice (open by default) rules wide screens; on a phone the open sidebar overlays
  // the page, so it starts closed there and closes again after each navigation.
  const storedOpen = useSession((s) => s.toggle);
  const phone = useMediaQuery('(max-width: 767.98px)');
  const [phoneOpenOn, setPhoneOpenOn] = useState<string | null>(null);
  const phoneOpen = phoneOpenOn === pathname;
  const open = phone ? phoneOpen : storedOpen;
  const toggleSidebar = () =>
    phone ? setPhoneOpenOn(phoneOpen ? null : pathname) : setSidebarOpen(!storedOpen);
  const closePhoneMenu = useCallback(() => setPhoneOpenOn(null), []);
  useOverlayMenuFocus({ overlaid: phone && open, menuId: 'admin-sidebar', close: closePhoneMenu });

  // After a route change, focus goes to the new content (not on the first load).
  useEffect(() => {
    if (pathname !== firstPath.current) {
      firstPath.current = '';
      main.current?.focus({ preventScroll: true });
      window.scrollTo(0, 0);
    }
  }, [pathname]);

  // Admin screens toast often: fetch sonner once the first screen is up, not on the first toast.
  useEffect(() => preloadToastsWhenIdle(), []);

  const logout = async () => {
    setLoggingOut(true);
    await signOut();
    // Clearing the session sends the guard to /login-admin at once; the timed redirect is the
    // spec's (500 ms) and covers any screen without a guard.
    clearSession();
    notify.success(signInMessages.loggedOut);
    setTimeout(() => navigateTo(paths.signIn.href()), LOGOUT_REDIRECT_MS);
  };

  // The idle deadline passed: revoke (the server may not have noticed yet) and go to sign-in.
  const expire = async () => {
    await signOut();
    clearSession();
    notify.info(sessionMessages.signedOutIdle);
    navigateTo(paths.signIn.href());
  };

  return (
    <QueryProvider>
      <ColorMode />
      <a href="#main-content" className="skip-link" onClick={focusMain}>
        Skip to main content
      </a>
      <div className={`admin-shell${open ? '' : ' sidebar-collapsed'}`}>
        <Sidebar open={open} />
        {phone && open ? (
          <div className="sidebar-backdrop" aria-hidden="true" onClick={closePhoneMenu} />
        ) : null}
        <div className="admin-body">
          <Topbar
            sidebarOpen={open}
            onToggleSidebar={toggleSidebar}
            name={name}
            avatarUrl={avatarUrl}
            onLogout={() => void logout()}
            loggingOut={loggingOut}
          />
          <main id="main-content" ref={main} tabIndex={-1} className="admin-main">
            <ScreenOutlet />
          </main>
          <footer className="admin-footer">
            © {new Date().getFullYear()} Device Admin. All rights reserved.
          </footer>
          <IdleWarning onSignOut={() => void logout()} onExpired={() => void expire()} />
        </div>
      </div>
    </QueryProvider>
  );
}
