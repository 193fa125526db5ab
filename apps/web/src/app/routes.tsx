import { Navigate, redirectDocument, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { PublicLayout } from './layouts/public-layout.tsx';
import { RequireAuth } from './require-auth.tsx';
import { RootLayout, type RouteHandle } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { RouteFallback } from './route-fallback.tsx';

/*
 * Every route of docs/product.md §2. Screens are lazy: the sign-in page loads none of the admin code.
 * To fill a screen, edit its page file in src/features/<domain>/pages/; to add one, add a route
 * here with `handle: { title }` (the document title) and a `lazy` import of its page.
 */
const handle = (title: string): RouteHandle => ({ title });

/*
 * The public checkout (/plans/{id}, /success, /cancel) is not part of this router: src/main.tsx shows
 * it without the console (docs/decisions/028). Reached from inside the console, it is a page load.
 */
const checkoutPage = ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  return redirectDocument(`${url.pathname}${url.search}`);
};

const signIn = () =>
  import('../features/auth/pages/sign-in-page.tsx').then((m) => ({ Component: m.SignInPage }));

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
          { path: 'login-admin', handle: handle('Sign In'), lazy: signIn },
          { path: 'login', handle: handle('Sign In'), lazy: signIn },
          {
            // Password reset uses the query cache; sign-in does not, so it loads without it.
            lazy: () => import('./query-provider.tsx').then((m) => ({ Component: m.QueryOutlet })),
            children: [
              {
                path: 'forgot-password',
                handle: handle('Forgot Password'),
                lazy: () =>
                  import('../features/auth/pages/forgot-password-page.tsx').then((m) => ({
                    Component: m.ForgotPasswordPage,
                  })),
              },
              {
                path: 'enter-otp',
                handle: handle('Enter OTP'),
                lazy: () =>
                  import('../features/auth/pages/enter-otp-page.tsx').then((m) => ({
                    Component: m.EnterOtpPage,
                  })),
              },
              {
                path: 'reset-password/:token',
                handle: handle('Reset Password'),
                lazy: () =>
                  import('../features/auth/pages/reset-password-page.tsx').then((m) => ({
                    Component: m.ResetPasswordPage,
                  })),
              },
            ],
          },
        ],
      },
      {
        path: 'admin',
        Component: RequireAuth,
        children: [
          // /admin alone is "any other path" too.
          { index: true, element: <Navigate to="/login-admin" replace /> },
          {
            lazy: () => import('./layouts/admin-layout.tsx').then((m) => ({ Component: m.AdminLayout })),
            children: [
              {
                // One broken screen shows the error inside the layout; the console stays usable.
                errorElement: <RouteError />,
                children: [
                  {
                    path: 'dashboard',
                    handle: handle('Dashboard'),
                    lazy: () =>
                      import('../features/dashboard/pages/dashboard-page.tsx').then((m) => ({
                        Component: m.DashboardPage,
                      })),
                  },
                  {
                    path: 'widgets',
                    handle: handle('Widgets'),
                    lazy: () =>
                      import('../features/dashboard/pages/widgets-page.tsx').then((m) => ({
                        Component: m.WidgetsPage,
                      })),
                  },
                  {
                    path: 'device',
                    handle: handle('Device Management'),
                    lazy: () =>
                      import('../features/devices/pages/devices-page.tsx').then((m) => ({
                        Component: m.DevicesPage,
                      })),
                  },
                  {
                    path: 'device-details/:id',
                    handle: handle('Device Details'),
                    lazy: () =>
                      import('../features/devices/pages/device-details-page.tsx').then((m) => ({
                        Component: m.DeviceDetailsPage,
                      })),
                  },
                  {
                    path: 'view-doctor/:id',
                    handle: handle('Doctor Details'),
                    lazy: () =>
                      import('../features/devices/pages/view-doctor-page.tsx').then((m) => ({
                        Component: m.ViewDoctorPage,
                      })),
                  },
                  {
                    path: 'view-patient/:id',
                    handle: handle('Patient Details'),
                    lazy: () =>
                      import('../features/devices/pages/view-patient-page.tsx').then((m) => ({
                        Component: m.ViewPatientPage,
                      })),
                  },
                  {
                    path: 'view-technician/:id',
                    handle: handle('Technician Details'),
                    lazy: () =>
                      import('../features/devices/pages/view-technician-page.tsx').then((m) => ({
                        Component: m.ViewTechnicianPage,
                      })),
                  },
                  {
                    path: 'roles',
                    handle: handle('Roles'),
                    lazy: () =>
                      import('../features/roles/pages/roles-page.tsx').then((m) => ({
                        Component: m.RolesPage,
                      })),
                  },
                  {
                    path: 'view-role/:id',
                    handle: handle('Role Details'),
                    lazy: () =>
                      import('../features/roles/pages/view-role-page.tsx').then((m) => ({
                        Component: m.ViewRolePage,
                      })),
                  },
                  {
                    path: 'logs-management',
                    handle: handle('Admin Logs'),
                    lazy: () =>
                      import('../features/logs/pages/logs-page.tsx').then((m) => ({ Component: m.LogsPage })),
                  },
                  {
                    path: 'user-management',
                    handle: handle('User Management'),
                    lazy: () =>
                      import('../features/users/pages/users-page.tsx').then((m) => ({
                        Component: m.UsersPage,
                      })),
                  },
                  {
                    path: 'view-user/:id',
                    handle: handle('User Details'),
                    lazy: () =>
                      import('../features/users/pages/view-user-page.tsx').then((m) => ({
                        Component: m.ViewUserPage,
                      })),
                  },
                  {
                    path: 'subscription-management',
                    handle: handle('Subscription'),
                    lazy: () =>
                      import('../features/subscriptions/pages/subscriptions-page.tsx').then((m) => ({
                        Component: m.SubscriptionsPage,
                      })),
                  },
                  {
                    path: 'app-update',
                    handle: handle('App Update'),
                    lazy: () =>
                      import('../features/app-updates/pages/app-updates-page.tsx').then((m) => ({
                        Component: m.AppUpdatesPage,
                      })),
                  },
                  {
                    path: 'change-password',
                    handle: handle('Change Password'),
                    lazy: () =>
                      import('../features/profile/pages/change-password-page.tsx').then((m) => ({
                        Component: m.ChangePasswordPage,
                      })),
                  },
                  {
                    path: 'profile',
                    handle: handle('My Profile'),
                    lazy: () =>
                      import('../features/profile/pages/profile-page.tsx').then((m) => ({
                        Component: m.ProfilePage,
                      })),
                  },
                  {
                    path: 'update-profile',
                    handle: handle('Update Profile'),
                    lazy: () =>
                      import('../features/profile/pages/update-profile-page.tsx').then((m) => ({
                        Component: m.UpdateProfilePage,
                      })),
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: 'plans/:id?', loader: checkoutPage },
      { path: 'success', loader: checkoutPage },
      { path: 'cancel', loader: checkoutPage },
      // docs/product.md §2.1: any other path (including /admin itself) goes to sign-in.
      { path: '*', element: <Navigate to="/login-admin" replace /> },
    ],
  },
];
