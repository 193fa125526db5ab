import type { KeyboardEvent } from 'react';

/*
 * The keys of a menu button and its menu (WAI-ARIA's menu button pattern), shared by every menu of
 * the console (the profile menu, the lists' row menus): Enter, Space or Down open it on the first
 * item and Up on the last; in it, Down and Up move round, Home and End jump, Tab leaves and closes,
 * and Space activates a link item as Enter does.
 */

/** The button's keys: `openAt(index)` opens the menu with that item focused. */
export const menuButtonKeys =
  (count: number, openAt: (index: number) => void) => (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(count - 1);
    }
  };

/** The open menu's keys, with item `focused` of `count` focused now. */
export const menuKeys =
  (count: number, focused: number, focus: (index: number) => void, close: () => void) =>
  (event: KeyboardEvent<HTMLUListElement>) => {
    const moves: Record<string, number> = {
      ArrowDown: (focused + 1) % count,
      ArrowUp: (focused - 1 + count) % count,
      Home: 0,
      End: count - 1,
    };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      focus(next);
    } else if (event.key === 'Tab') {
      close();
    } else if (event.key === ' ' && event.target instanceof HTMLAnchorElement) {
      // Space activates a menu item, links included.
      event.preventDefault();
      event.target.click();
    }
  };
