import type { ComponentType } from 'react';
import { matchPath } from 'react-router';
import type { Permission } from '@app/contract/permissions';
import { navIcons, type NavIconName } from '#web/components/nav-icons.ts';
import type { AdminScreen, NavGroupName } from '#web/lib/admin-screens.ts';
import type { RoutePattern } from '#web/lib/paths.ts';
import { adminScreens } from '../screen-list.ts';

type Icon = ComponentType<{ size?: number }>;

export type NavLeaf = {
  label: string;
  to: string;
  icon: Icon;
  /** Other routes for which this item is the active one (detail pages). */
  also?: readonly RoutePattern[];
  /** What the screen needs (decision 047): without it the item is not shown. */
  permission?: Permission;
};
export type NavGroup = { name: NavGroupName; label: string; icon: Icon; children: NavLeaf[] };
export type NavItem = NavLeaf | NavGroup;

export const isGroup = (item: NavItem): item is NavGroup => 'children' in item;

/** The sidebar's folding groups; a screen's entry names the one it goes in. */
const groups: Record<NavGroupName, { label: string; icon: NavIconName }> = {
  account: { label: 'Account', icon: 'account' },
};

/**
 * The sidebar (docs/product.md §2.3) from the screens' declarations: each entry in its `order`, a
 * group where its first entry stands, holding its entries in their order.
 */
function sidebarOf(screens: readonly AdminScreen[]): NavItem[] {
  const items: NavItem[] = [];
  const entries = screens.flatMap((screen) => (screen.nav ? [{ screen, nav: screen.nav }] : []));
  for (const { screen, nav } of entries.sort((a, b) => a.nav.order - b.nav.order)) {
    const leaf: NavLeaf = {
      label: nav.label ?? screen.title,
      // An entry's route has no parameters: its pattern is its href.
      to: screen.route.path,
      icon: navIcons[nav.icon],
      also: nav.also,
      permission: screen.permission,
    };
    if (!nav.group) {
      items.push(leaf);
      continue;
    }
    const group = items.find((item): item is NavGroup => isGroup(item) && item.name === nav.group);
    if (group) group.children.push(leaf);
    else {
      const { label, icon } = groups[nav.group];
      items.push({ name: nav.group, label, icon: navIcons[icon], children: [leaf] });
    }
  }
  return items;
}

const navItems: readonly NavItem[] = sidebarOf(adminScreens);

/** The items an admin whose role carries `held` may open: the others are not shown (decision 047). */
export function navItemsFor(held: readonly string[]): NavItem[] {
  const may = (leaf: NavLeaf) => leaf.permission === undefined || held.includes(leaf.permission);
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
