import { useId, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { Link } from '#web/components/link.tsx';
import { DeviceIcon } from '#web/components/base-icons.tsx';
import { ChevronDownIcon } from '#web/components/icons.tsx';
import { paths } from '#web/lib/paths.ts';
import { useHeldPermissions } from '#web/lib/use-session.ts';
import { isActive, isGroup, navItemsFor, type NavGroup, type NavLeaf } from './nav-items.ts';
import { screenPermission } from './screen-permissions.ts';

function Leaf({ item, pathname, open }: { item: NavLeaf; pathname: string; open: boolean }) {
  const active = isActive(item, pathname);
  const Icon = item.icon;
  return (
    <li>
      <Link
        to={item.to}
        className={`sidebar-link${active ? ' active' : ''}`}
        aria-current={active ? 'page' : undefined}
        title={open ? undefined : item.label}
      >
        <Icon size={20} />
        <span className="sidebar-label">{item.label}</span>
      </Link>
    </li>
  );
}

function Group({ item, pathname, open }: { item: NavGroup; pathname: string; open: boolean }) {
  const childActive = item.children.some((child) => isActive(child, pathname));
  // Open while one of its pages is shown, until the admin closes it.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const listId = useId();
  const Icon = item.icon;
  const shown = chosen ?? childActive;
  return (
    <li>
      <button
        type="button"
        className={`sidebar-link sidebar-group${childActive ? ' has-active' : ''}`}
        aria-expanded={shown}
        aria-controls={listId}
        title={open ? undefined : item.label}
        onClick={() => setChosen(!shown)}
      >
        <Icon size={20} />
        <span className="sidebar-label">{item.label}</span>
        <ChevronDownIcon size={16} className={`sidebar-chevron${shown ? ' rotated' : ''}`} />
      </button>
      <ul id={listId} className="sidebar-children list-unstyled" hidden={!shown}>
        {item.children.map((child) => (
          <Leaf key={child.to} item={child} pathname={pathname} open={open} />
        ))}
      </ul>
    </li>
  );
}

/** The dark, collapsible sidebar: full labels when open, an icon rail when collapsed. */
export function Sidebar({ open }: { open: boolean }) {
  const { pathname } = useLocation();
  const held = useHeldPermissions();
  const items = useMemo(() => navItemsFor(held), [held]);
  // The spec's brand link goes to Device Management; an admin who cannot open it goes to the Dashboard.
  const needs = screenPermission(paths.devices.path);
  const home = needs === null || held.includes(needs) ? paths.devices.href() : paths.dashboard.href();
  return (
    <nav id="admin-sidebar" aria-label="Main" className="sidebar">
      <Link to={home} className="sidebar-brand" title={open ? undefined : 'Device Admin'}>
        <span className="sidebar-brand-mark">
          <DeviceIcon size={20} />
        </span>
        <span className="sidebar-label">Device Admin</span>
      </Link>
      <div className="sidebar-nav">
        <ul className="list-unstyled mb-0">
          {items.map((item) =>
            isGroup(item) ? (
              <Group key={item.label} item={item} pathname={pathname} open={open} />
            ) : (
              <Leaf key={item.to} item={item} pathname={pathname} open={open} />
            ),
          )}
        </ul>
      </div>
    </nav>
  );
}
