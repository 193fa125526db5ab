import type { ComponentType } from 'react';
import { matchPath } from 'react-router';
import { DeviceIcon } from '#web/components/base-icons.tsx';
import {
  AccountIcon,
  BellIcon,
  CardIcon,
  DashboardIcon,
  EditUserIcon,
  KeyIcon,
  LogsIcon,
  ShieldIcon,
  UploadIcon,
  UserIcon,
  UsersIcon,
} from '#web/components/icons.tsx';
import { paths, type RoutePattern } from '#web/lib/paths.ts';
import { screenPermission } from './screen-permissions.ts';

type Icon = ComponentType<{ size?: number }>;

export type NavLeaf = {
  label: string;
  to: string;
  icon: Icon;
  /** Other routes for which this item is the active one (detail pages). */
  also?: readonly RoutePattern[];
};
export type NavGroup = { label: string; icon: Icon; children: readonly NavLeaf[] };
export type NavItem = NavLeaf | NavGroup;

export const isGroup = (item: NavItem): item is NavGroup => 'children' in item;

/** docs/product.md §2.3 admin routes, in sidebar order. */
const navItems: readonly NavItem[] = [
  { label: 'Dashboard', to: paths.dashboard.href(), icon: DashboardIcon },
  {
    label: 'Device Management',
    to: paths.devices.href(),
    icon: DeviceIcon,
    also: [paths.deviceDetails, paths.viewDoctor, paths.viewPatient, paths.viewTechnician],
  },
  { label: 'Roles', to: paths.roles.href(), icon: ShieldIcon, also: [paths.viewRole] },
  { label: 'Admin Logs', to: paths.logs.href(), icon: LogsIcon },
  { label: 'User Management', to: paths.users.href(), icon: UsersIcon, also: [paths.viewUser] },
  { label: 'Subscription', to: paths.subscriptions.href(), icon: CardIcon },
  { label: 'App Update', to: paths.appUpdates.href(), icon: UploadIcon },
  { label: 'Alarms', to: paths.alarms.href(), icon: BellIcon },
  {
    label: 'Account',
    icon: AccountIcon,
    children: [
      { label: 'Profile', to: paths.profile.href(), icon: UserIcon },
      { label: 'Update Profile', to: paths.updateProfile.href(), icon: EditUserIcon },
      { label: 'Change Password', to: paths.changePassword.href(), icon: KeyIcon },
    ],
  },
];

/** The items an admin whose role carries `held` may open: the others are not shown (decision 047). */
export function navItemsFor(held: readonly string[]): NavItem[] {
  const may = (leaf: NavLeaf) => {
    const needs = screenPermission(leaf.to);
    return needs === null || held.includes(needs);
  };
  return navItems.flatMap((item): NavItem[] => {
    if (!isGroup(item)) return may(item) ? [item] : [];
    const children = item.children.filter(may);
    return children.length ? [{ ...item, children }] : [];
  });
}

export function isActive(item: NavLeaf, pathname: string) {
  const path = pathname.replace(/\/+$/, '') || '/';
  return path === item.to || (item.also ?? []).some((route) => matchPath(route.path, path) !== null);
}
