import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ColorMode } from '@app/contract/preferences';
import { Link } from '#web/components/link.tsx';
import { ChevronDownIcon, EditUserIcon, KeyIcon, LogoutIcon, UserIcon } from '#web/components/icons.tsx';
import { paths } from '#web/lib/paths.ts';
import { useColorMode, useSaveColorMode } from '#web/lib/use-color-mode.ts';
import { useDismiss } from '#web/lib/use-dismiss.ts';
import { menuButtonKeys, menuKeys } from '#web/lib/menu-keys.ts';

export type ProfileMenuProps = { name: string; onLogout: () => void; loggingOut?: boolean };

const themes: Array<{ mode: ColorMode; label: string }> = [
  { mode: 'light', label: 'Light' },
  { mode: 'dark', label: 'Dark' },
  { mode: 'system', label: 'Use system setting' },
];

/**
 * The top-bar menu (WAI-ARIA menu button): Enter, Space or ArrowDown open it on the first item,
 * ArrowUp on the last; arrows, Home and End move; Escape closes and returns focus; Tab leaves.
 * The Theme group's radio items pick the colour mode (decision 054) and return focus to the button.
 */
export function ProfileMenu({ name, onLogout, loggingOut = false }: ProfileMenuProps) {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(container, open, close, button);
  const colorMode = useColorMode();
  const saveColorMode = useSaveColorMode();

  useEffect(() => {
    if (open) menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]')[focusIndex]?.focus();
  }, [open, focusIndex]);

  const count = 4 + themes.length;
  const openAt = (index: number) => {
    setFocusIndex(index);
    setOpen(true);
  };

  const onButtonKey = menuButtonKeys(count, openAt);
  const onMenuKey = menuKeys(count, focusIndex, setFocusIndex, () => setOpen(false));

  const links = [
    { to: paths.profile.href(), label: 'Profile', Icon: UserIcon },
    { to: paths.updateProfile.href(), label: 'Update Profile', Icon: EditUserIcon },
    { to: paths.changePassword.href(), label: 'Change Password', Icon: KeyIcon },
  ];

  return (
    <div className="dropdown profile-menu" ref={container}>
      <button
        ref={button}
        type="button"
        className="btn btn-light d-inline-flex align-items-center gap-2 profile-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? setOpen(false) : openAt(0))}
        onKeyDown={onButtonKey}
      >
        <span className="profile-name text-truncate">{name}</span>
        <ChevronDownIcon size={16} />
      </button>
      {open ? (
        <ul
          ref={menu}
          id={menuId}
          role="menu"
          aria-label="Profile menu"
          className="dropdown-menu dropdown-menu-end show shadow"
          onKeyDown={onMenuKey}
        >
          {links.map(({ to, label, Icon }) => (
            <li role="none" key={to}>
              <Link
                role="menuitem"
                tabIndex={-1}
                to={to}
                className="dropdown-item d-flex align-items-center gap-2"
                onClick={() => setOpen(false)}
              >
                <Icon size={16} />
                {label}
              </Link>
            </li>
          ))}
          <li role="none">
            <hr className="dropdown-divider" />
          </li>
          <li role="none">
            <span className="dropdown-header" aria-hidden="true">
              Theme
            </span>
            <ul role="group" aria-label="Theme" className="list-unstyled">
              {themes.map(({ mode, label }) => (
                <li role="none" key={mode}>
                  <button
                    role="menuitemradio"
                    aria-checked={colorMode === mode}
                    tabIndex={-1}
                    type="button"
                    className="dropdown-item d-flex align-items-center gap-2"
                    onClick={() => {
                      setOpen(false);
                      button.current?.focus();
                      saveColorMode(mode);
                    }}
                  >
                    <span className="theme-check" aria-hidden="true">
                      {colorMode === mode ? '✓' : ''}
                    </span>
                    {label}
                  </button>
                </li>
              ))}
            </ul>
          </li>
          <li role="none">
            <hr className="dropdown-divider" />
          </li>
          <li role="none">
            <button
              role="menuitem"
              tabIndex={-1}
              type="button"
              className="dropdown-item d-flex align-items-center gap-2 text-danger"
              disabled={loggingOut}
              onClick={() => {
                setOpen(false);
                onLogout();
              }}
            >
              <LogoutIcon size={16} />
              {loggingOut ? 'Logging out...' : 'Logout'}
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
