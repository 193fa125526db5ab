import {
  Navigate,
  redirectDocument,
  type LoaderFunctionArgs,
  type PatchRoutesOnNavigationFunction,
  type RouteObject,
} from 'react-router';
import { acknowledgementPagePath } from '@app/contract/safety-notices-texts';
import { paths, type RoutePattern } from '../lib/paths.ts';
import { lazyPage } from '../lib/lazy-page.ts';
import { PublicLayout } from './layouts/public-layout.tsx';
import { RequireAuth } from './require-auth.tsx';
import { RequireClinic } from './require-clinic.tsx';
import { RootLayout, type RouteHandle } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { RouteFallback } from './route-fallback.tsx';

/*
 * Every route of docs/product.md §2. Screens are lazy: the sign-in page loads none of the admin code.
 * The public pages and the checkout's hand-offs are written here; the admin screens are declared by
 * their features (features/<domain>/<domain>-screens.ts), listed in screen-list.ts, and join the
 * router on the first visit under /admin/ (`routerOptions` below).
 */
const handle = (title: string): RouteHandle => ({ title });

/** A screen: its path from the registry, its document title and its lazily loaded page. */
const page = (route: RoutePattern, title: string, lazy: RouteObject['lazy']): RouteObject => ({
  path: route.path,
  handle: handle(title),
  lazy,
});

/*
 * The public checkout (/plans/{id}, /success, /cancel) is not part of this router: src/main.tsx shows
 * it without the console (docs/decisions/028). Reached from inside the console, it is a page load.
 */
const checkoutPage = ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  return redirectDocument(`${url.pathname}${url.search}`);
};

/** The route the admin screens are patched into, inside the admin layout. */
const ADMIN_SCREENS = 'admin-screens';

/*
 * The admin screens' table (screen-list.ts, with every feature's declarations) is loaded on the first
 * navigation under /admin/ and patched into the router, so the sign-in screen carries none of it
 * (docs/architecture.md §7). React Router asks again for paths with parameters; it keeps one copy of
 * each route.
 */
const patchRoutesOnNavigation: PatchRoutesOnNavigationFunction = async ({ path, patch }) => {
  if (!path.startsWith(`${paths.admin.path}/`)) return;
  const { adminScreens } = await import('./screen-list.ts');
  patch(
    ADMIN_SCREENS,
    adminScreens.map((screen) => page(screen.route, screen.title, screen.page)),
  );
};

/** What the console's router takes besides `routes` (console.tsx, and tests that render the console). */
export const routerOptions = { patchRoutesOnNavigation };

const signIn = lazyPage(() => import('../features/auth/pages/sign-in-page.tsx'), 'SignInPage');

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    errorElement: <RouteError standalone />,
    HydrateFallback: RouteFallback,
    children: [
      {
        Component: PublicLayout,
        children: [
          { index: true, handle: handle('Sign In'), lazy: signIn },
          page(paths.signIn, 'Sign In', signIn),
          page(paths.signInAlias, 'Sign In', signIn),
          {
            // Password reset uses the query cache; sign-in does not, so it loads without it.
            lazy: lazyPage(() => import('./query-provider.tsx'), 'QueryOutlet'),
            children: [
              page(
                paths.forgotPassword,
                'Forgot Password',
                lazyPage(
                  () => import('../features/auth/pages/forgot-password-page.tsx'),
                  'ForgotPasswordPage',
                ),
              ),
              page(
                paths.enterOtp,
                'Enter OTP',
                lazyPage(() => import('../features/auth/pages/enter-otp-page.tsx'), 'EnterOtpPage'),
              ),
              // A clinic acknowledges a field safety notice through its mailed link (decision 084).
              page(
                { path: acknowledgementPagePath(':token') },
                'Field Safety Notice',
                lazyPage(
                  () => import('../features/safety-notices/pages/acknowledge-page.tsx'),
                  'AcknowledgePage',
                ),
              ),
              // A clinic user's invitation: set a password, then two-step sign-in (decision 088).
              page(
                paths.invitation,
                'Invitation',
                lazyPage(
                  () => import('../features/auth/pages/accept-invitation-page.tsx'),
                  'AcceptInvitationPage',
                ),
              ),
              page(
                paths.resetPassword,
                'Reset Password',
                lazyPage(() => import('../features/auth/pages/reset-password-page.tsx'), 'ResetPasswordPage'),
              ),
            ],
          },
        ],
      },
      {
        path: paths.admin.path,
        Component: RequireAuth,
        children: [
          // /admin alone is "any other path" too.
          { index: true, element: <Navigate to={paths.signIn.href()} replace /> },
          {
            lazy: lazyPage(() => import('./layouts/admin-layout.tsx'), 'AdminLayout'),
            children: [
              {
                id: ADMIN_SCREENS,
                // One broken screen shows the error inside the layout; the console stays usable.
                errorElement: <RouteError />,
                // Patched in from screen-list.ts by `routerOptions`.
                children: [],
              },
            ],
          },
        ],
      },
      {
        // The clinic portal (decision 088): clinic users only; its own layout.
        path: paths.clinic.path,
        Component: RequireClinic,
        children: [
          {
            lazy: lazyPage(() => import('./layouts/clinic-layout.tsx'), 'ClinicLayout'),
            children: [
              {
                errorElement: <RouteError />,
                children: [
                  {
                    index: true,
                    handle: handle('Clinic portal'),
                    lazy: lazyPage(
                      () => import('../features/clinic/pages/clinic-home-page.tsx'),
                      'ClinicHomePage',
                    ),
                  },
                  page(
                    paths.clinicMachines,
                    'Machines',
                    lazyPage(
                      () => import('../features/clinic-portal/pages/clinic-machines-page.tsx'),
                      'ClinicMachinesPage',
                    ),
                  ),
                  page(
                    paths.clinicFigures,
                    'Treatment figures',
                    lazyPage(
                      () => import('../features/clinic-portal/pages/clinic-figures-page.tsx'),
                      'ClinicFiguresPage',
                    ),
                  ),
                  page(
                    paths.clinicUsage,
                    'Monthly usage report',
                    lazyPage(
                      () => import('../features/clinic-portal/pages/clinic-usage-page.tsx'),
                      'ClinicUsagePage',
                    ),
                  ),
                  page(
                    paths.clinicBilling,
                    'Billing',
                    lazyPage(
                      () => import('../features/clinic-portal/pages/clinic-billing-page.tsx'),
                      'ClinicBillingPage',
                    ),
                  ),
                  page(
                    paths.clinicUsers,
                    'Users',
                    lazyPage(
                      () => import('../features/clinic/pages/clinic-users-page.tsx'),
                      'ClinicUsersPage',
                    ),
                  ),
                  page(
                    paths.clinicActivity,
                    'Activity',
                    lazyPage(
                      () => import('../features/clinic-portal/pages/clinic-activity-page.tsx'),
                      'ClinicActivityPage',
                    ),
                  ),
                ],
              },
            ],
          },
        ],
      },
      { path: paths.plans.path, loader: checkoutPage },
      { path: paths.paymentSuccess.path, loader: checkoutPage },
      { path: paths.paymentCancel.path, loader: checkoutPage },
      // docs/product.md §2.1: any other path (including /admin itself) goes to sign-in.
      { path: '*', element: <Navigate to={paths.signIn.href()} replace /> },
    ],
  },
];
