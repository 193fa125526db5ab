import { Navigate, redirectDocument, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { paths, type RoutePattern } from '../lib/paths.ts';
import { lazyPage } from './lazy-page.ts';
import { PublicLayout } from './layouts/public-layout.tsx';
import { RequireAuth } from './require-auth.tsx';
import { RootLayout, type RouteHandle } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { RouteFallback } from './route-fallback.tsx';

/*
 * Every route of docs/product.md §2. Screens are lazy: the sign-in page loads none of the admin code.
 * To fill a screen, edit its page file in src/features/<domain>/pages/; to add one, name its path in
 * lib/paths.ts and add `page(paths.x, title, lazyPage(() => import(...), 'XPage'))` here.
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
                // One broken screen shows the error inside the layout; the console stays usable.
                errorElement: <RouteError />,
                children: [
                  page(
                    paths.dashboard,
                    'Dashboard',
                    lazyPage(() => import('../features/dashboard/pages/dashboard-page.tsx'), 'DashboardPage'),
                  ),
                  page(
                    paths.widgets,
                    'Widgets',
                    lazyPage(() => import('../features/dashboard/pages/widgets-page.tsx'), 'WidgetsPage'),
                  ),
                  page(
                    paths.devices,
                    'Device Management',
                    lazyPage(() => import('../features/devices/pages/devices-page.tsx'), 'DevicesPage'),
                  ),
                  page(
                    paths.deviceDetails,
                    'Device Details',
                    lazyPage(
                      () => import('../features/devices/pages/device-details-page.tsx'),
                      'DeviceDetailsPage',
                    ),
                  ),
                  page(
                    paths.viewDoctor,
                    'Doctor Details',
                    lazyPage(
                      () => import('../features/devices/pages/view-doctor-page.tsx'),
                      'ViewDoctorPage',
                    ),
                  ),
                  page(
                    paths.viewPatient,
                    'Patient Details',
                    lazyPage(
                      () => import('../features/devices/pages/view-patient-page.tsx'),
                      'ViewPatientPage',
                    ),
                  ),
                  page(
                    paths.viewTechnician,
                    'Technician Details',
                    lazyPage(
                      () => import('../features/devices/pages/view-technician-page.tsx'),
                      'ViewTechnicianPage',
                    ),
                  ),
                  page(
                    paths.roles,
                    'Roles',
                    lazyPage(() => import('../features/roles/pages/roles-page.tsx'), 'RolesPage'),
                  ),
                  page(
                    paths.viewRole,
                    'Role Details',
                    lazyPage(() => import('../features/roles/pages/view-role-page.tsx'), 'ViewRolePage'),
                  ),
                  page(
                    paths.logs,
                    'Admin Logs',
                    lazyPage(() => import('../features/logs/pages/logs-page.tsx'), 'LogsPage'),
                  ),
                  page(
                    paths.users,
                    'User Management',
                    lazyPage(() => import('../features/users/pages/users-page.tsx'), 'UsersPage'),
                  ),
                  page(
                    paths.viewUser,
                    'User Details',
                    lazyPage(() => import('../features/users/pages/view-user-page.tsx'), 'ViewUserPage'),
                  ),
                  page(
                    paths.subscriptions,
                    'Subscription',
                    lazyPage(
                      () => import('../features/subscriptions/pages/subscriptions-page.tsx'),
                      'SubscriptionsPage',
                    ),
                  ),
                  page(
                    paths.appUpdates,
                    'App Update',
                    lazyPage(
                      () => import('../features/app-updates/pages/app-updates-page.tsx'),
                      'AppUpdatesPage',
                    ),
                  ),
                  page(
                    paths.alarms,
                    'Alarms',
                    lazyPage(() => import('../features/alarms/pages/alarms-page.tsx'), 'AlarmsPage'),
                  ),
                  page(
                    paths.treatments,
                    'Treatment Records',
                    lazyPage(() => import('../features/devices/pages/treatments-page.tsx'), 'TreatmentsPage'),
                  ),
                  page(
                    paths.changePassword,
                    'Change Password',
                    lazyPage(
                      () => import('../features/profile/pages/change-password-page.tsx'),
                      'ChangePasswordPage',
                    ),
                  ),
                  page(
                    paths.profile,
                    'My Profile',
                    lazyPage(() => import('../features/profile/pages/profile-page.tsx'), 'ProfilePage'),
                  ),
                  page(
                    paths.updateProfile,
                    'Update Profile',
                    lazyPage(
                      () => import('../features/profile/pages/update-profile-page.tsx'),
                      'UpdateProfilePage',
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
