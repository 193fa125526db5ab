import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { MoreIcon } from './icons.tsx';
import { useDismiss } from '../lib/use-dismiss.ts';
import { menuButtonKeys, menuKeys } from '../lib/menu-keys.ts';

/** One entry of a row's menu: an action, or a link that opens in a new tab (a receipt). */
export type RowMenuItem = {
  label: string;
  /** Shown in red: it ends or takes something away. */
  danger?: boolean;
} & ({ onSelect: () => void; href?: never } | { href: string; onSelect?: never });

/** Where the menu is drawn: under the button's right edge, in the viewport. */
type Place = { top: number; right: number };
const placeUnder = (rect: DOMRect): Place => ({
  top: rect.bottom + 2,
  right: window.innerWidth - rect.right,
});

/**
 * The actions of one table row behind one button (WAI-ARIA menu button, like the profile menu):
 * Enter, Space or ArrowDown open it on the first item, ArrowUp on the last; arrows, Home and End
 * move; Escape closes and gives focus back to the button; Tab leaves. Choosing an item closes the
 * menu and puts focus back on the button first, so a dialog the item opens returns focus there.
 *
 * The menu is positioned in the viewport (fixed), not in the row: the table scrolls sideways inside
 * its own region, which would clip a menu hanging below the last row. The caller leaves out what the admin may not do; with nothing left there is no button.
 */
export function RowMenu({
  label,
  items,
  pending = false,
  onIntent,
}: {
  label: string;
  items: readonly RowMenuItem[];
  /** More items are being fetched: the menu ends with a 'Loading…' item until they come. */
  pending?: boolean;
  /** Runs when the pointer reaches the button or it gets focus: start fetching what the items need. */
  onIntent?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const [place, setPlace] = useState<Place>({ top: 0, right: 0 });
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(container, open, close, button);

  const count = items.length + (pending ? 1 : 0);
  // Items arriving (or the 'Loading…' one leaving) keep focus on an item that is there.
  const focused = Math.min(focusIndex, count - 1);
  useEffect(() => {
    if (open) menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[focused]?.focus();
  }, [open, focused, count]);

  // The menu follows its button when the page or the table scrolls (a smooth scroll that brought the
  // row into view may still be running when the menu opens), and closes once the button is gone.
  useEffect(() => {
    if (!open) return;
    const follow = () => {
      const rect = button.current?.getBoundingClientRect();
      if (!rect || rect.bottom < 0 || rect.top > window.innerHeight) return close();
      setPlace(placeUnder(rect));
    };
    window.addEventListener('scroll', follow, true);
    window.addEventListener('resize', follow);
    return () => {
      window.removeEventListener('scroll', follow, true);
      window.removeEventListener('resize', follow);
    };
  }, [open, close]);

  if (count === 0) return null;

  const openAt = (index: number) => {
    const rect = button.current?.getBoundingClientRect();
    if (rect) setPlace(placeUnder(rect));
    setFocusIndex(index);
    setOpen(true);
  };

  // Called in the handler: openAt reads the button's place when the key is pressed, not in render.
  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => menuButtonKeys(count, openAt)(event);
  const onMenuKey = menuKeys(count, focused, setFocusIndex, () => setOpen(false));

  const choose = (item: RowMenuItem) => {
    setOpen(false);
    button.current?.focus();
    item.onSelect?.();
  };

  const itemClass = (item: RowMenuItem) => `dropdown-item${item.danger ? ' text-danger' : ''}`;

  return (
    <div className="dropdown" ref={container}>
      <button
        ref={button}
        type="button"
        // Three dots, no word: a row's actions must stay narrow to fit a 1280 px window (issue 35).
        className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={label}
        title="Actions"
        onClick={() => (open ? setOpen(false) : openAt(0))}
        onKeyDown={onButtonKey}
        onPointerEnter={onIntent}
        onFocus={onIntent}
      >
        <MoreIcon size={16} />
      </button>
      {open ? (
        <ul
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={label}
          className="dropdown-menu show shadow"
          style={{ position: 'fixed', top: place.top, right: place.right, left: 'auto' }}
          onKeyDown={onMenuKey}
        >
          {items.map((item) => (
            <li role="none" key={item.label}>
              {item.href !== undefined ? (
                <a
                  role="menuitem"
                  tabIndex={-1}
                  href={item.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={itemClass(item)}
                  onClick={() => setOpen(false)}
                >
                  {item.label}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              ) : (
                <button
                  role="menuitem"
                  tabIndex={-1}
                  type="button"
                  className={itemClass(item)}
                  onClick={() => choose(item)}
                >
                  {item.label}
                </button>
              )}
            </li>
          ))}
          {pending ? (
            <li role="none">
              <span
                role="menuitem"
                tabIndex={-1}
                aria-disabled="true"
                className="dropdown-item-text text-body-secondary"
              >
                Loading…
              </span>
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
