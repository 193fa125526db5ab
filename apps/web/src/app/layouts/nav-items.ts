import type { ComponentType } from 'react';
import {
  AccountIcon,
  CardIcon,
  DashboardIcon,
  DeviceIcon,
  EditUserIcon,
  KeyIcon,
  LogsIcon,
  ShieldIcon,
  UploadIcon,
  UserIcon,
  UsersIcon,
} from '../../components/icons.tsx';

type Icon = ComponentType<{ size?: number }>;

export type NavLeaf = {
  label: string;
  to: string;
  icon: Icon;
  /** Other path prefixes for which this item is the active one (detail pages). */
  also?: readonly string[];
};
export type NavGroup = { label: string; icon: Icon; children: readonly NavLeaf[] };
export type NavItem = NavLeaf | NavGroup;

export const isGroup = (item: NavItem): item is NavGroup => 'children' in item;

/** docs/product.md §2.3 admin routes, in sidebar order. */
export const navItems: readonly NavItem[] = [
  { label: 'Dashboard', to: '/admin/dashboard', icon: DashboardIcon },
  {
    label: 'Device Management',
    to: '/admin/device',
    icon: DeviceIcon,
    also: [
      '/admin/device-details/',
      '/admin/view-doctor/',
      '/admin/view-patient/',
      '/admin/view-technician/',
    ],
  },
  { label: 'Roles', to: '/admin/roles', icon: ShieldIcon, also: ['/admin/view-role/'] },
  { label: 'Admin Logs', to: '/admin/logs-management', icon: LogsIcon },
  { label: 'User Management', to: '/admin/user-management', icon: UsersIcon, also: ['/admin/view-user/'] },
  { label: 'Subscription', to: '/admin/subscription-management', icon: CardIcon },
  { label: 'App Update', to: '/admin/app-update', icon: UploadIcon },
  {
    label: 'Account',
    icon: AccountIcon,
    children: [
      { label: 'Profile', to: '/admin/profile', icon: UserIcon },
      { label: 'Update Profile', to: '/admin/update-profile', icon: EditUserIcon },
      { label: 'Change Password', to: '/admin/change-password', icon: KeyIcon },
    ],
  },
];

export function isActive(item: NavLeaf, pathname: string) {
  const path = pathname.replace(/\/+$/, '') || '/';
  return path === item.to || (item.also ?? []).some((prefix) => path.startsWith(prefix));
}
