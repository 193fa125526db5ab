import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/lib/paths.ts';

/** The admin's own account (lib/admin-screens.ts): every admin may open it, under the sidebar's Account. */
export const profileScreens: readonly AdminScreen[] = [
  {
    route: paths.profile,
    title: 'My Profile',
    page: lazyPage(() => import('./pages/profile-page.tsx'), 'ProfilePage'),
    nav: { order: 90, icon: 'user', label: 'Profile', group: 'account' },
  },
  {
    route: paths.updateProfile,
    title: 'Update Profile',
    page: lazyPage(() => import('./pages/update-profile-page.tsx'), 'UpdateProfilePage'),
    nav: { order: 91, icon: 'edit-user', group: 'account' },
  },
  {
    route: paths.changePassword,
    title: 'Change Password',
    page: lazyPage(() => import('./pages/change-password-page.tsx'), 'ChangePasswordPage'),
    nav: { order: 92, icon: 'key', group: 'account' },
  },
];
